/**
 * The widget as a standard MCP Apps host shows it: the widget HTML alone in a sandboxed iframe
 * (`allow-scripts`, no same-origin), connected through the official `AppBridge` of
 * @modelcontextprotocol/ext-apps 2 (on the v2 SDK; the view's wire is the same as 1.x's). The bridge answers `ui/initialize` with the host context, sends
 * the tool input and result once the widget is initialized, forwards its `tools/call` to the
 * server (with the harness's faults), takes its size reports and display-mode requests, saves
 * the files it hands over with `ui/download-file` (the host lists `downloadFile`), keeps what it
 * tells the model (`ui/update-model-context`, for the inspector) and shows its `ui/message` in the
 * conversation. Every `ui/*` message goes to the log as the "view" peer.
 */
import { useEffect, useLayoutEffect, useRef } from "react";
import { AppBridge, PostMessageTransport, type McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { DisplayMode, Theme } from "../../host-globals.js";
import { openLink, saveDownloadItem } from "../bridge/save-file.js";
import { LoggingTransport } from "../mcp/logging-transport.js";
import type { HarnessSession } from "../session.js";
import { frameHeight, maxHeightOf, useHarness, type HarnessStore, type Mount } from "../store.js";

const HOST_INFO = { name: "giftgenius-harness", version: "0.1.0" };

type Props = { store: HarnessStore; session: HarnessSession; mount: Mount };

const contextOf = (s: { theme: Theme; displayMode: DisplayMode; locale: string }): McpUiHostContext => ({
  theme: s.theme,
  locale: s.locale,
  displayMode: s.displayMode,
  availableDisplayModes: ["inline", "fullscreen", "pip"],
  containerDimensions: { maxHeight: maxHeightOf(s) },
  platform: "web",
});

/** A bridge that answers the view's requests with the store and the session, and shows it the mounted result once it is initialized. */
function createBridge({ store, session, mount }: Props): AppBridge {
  const s = () => store.getState();
  const b = new AppBridge(
    null,
    HOST_INFO,
    {
      serverTools: {},
      openLinks: {},
      downloadFile: {},
      logging: {},
      message: { text: {} },
      updateModelContext: { text: {}, structuredContent: {} },
    },
    { hostContext: contextOf(s()) },
  );
  b.oncalltool = async (params) =>
    (await session.widgetCallTool(params.name, params.arguments ?? {})) as CallToolResult;
  b.onrequestdisplaymode = async ({ mode }) => {
    s().setDisplayMode(mode);
    return { mode };
  };
  b.onopenlink = async ({ url }) => {
    s().logNote("ui/open-link", { url, ...openLink(window, url) });
    return {};
  };
  b.ondownloadfile = async ({ contents }) => {
    for (const item of contents) s().logNote("ui/download-file", saveDownloadItem(window, item));
    return {};
  };
  b.onmessage = async (params) => {
    s().logNote("ui/message", params);
    s().addFollowUp(params.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n"));
    return {};
  };
  b.onupdatemodelcontext = async (params) => {
    s().logNote("ui/update-model-context", params);
    s().setModelContext(params);
    return {};
  };
  b.addEventListener("sizechange", ({ height }) => {
    if (typeof height === "number") s().setIntrinsicHeight(height);
  });
  b.addEventListener("initialized", () => {
    // a host sends nothing before the view says it is initialized
    void b.sendToolInput({ arguments: mount.toolInput });
    void b.sendToolResult({
      content: mount.toolContent,
      ...(mount.toolOutput === null ? {} : { structuredContent: mount.toolOutput }),
      ...(mount.toolResponseMetadata === null ? {} : { _meta: mount.toolResponseMetadata }),
      isError: mount.isError,
    } as CallToolResult);
  });
  return b;
}

export function AppBridgeFrame({ store, session, mount }: Props) {
  const ref = useRef<HTMLIFrameElement>(null);
  const bridge = useRef<AppBridge | null>(null);
  const theme = useHarness(store, (s) => s.theme);
  const displayMode = useHarness(store, (s) => s.displayMode);
  const locale = useHarness(store, (s) => s.locale);
  const intrinsic = useHarness(store, (s) => s.intrinsicHeight);

  useLayoutEffect(() => {
    const iframe = ref.current;
    const view = iframe?.contentWindow;
    if (!iframe || !view) return;
    const b = createBridge({ store, session, mount });
    const transport = new LoggingTransport(new PostMessageTransport(view, view), {
      message: (direction, message) => store.getState().logMessage(direction, message, "view"),
    });
    let live = true;
    void b.connect(transport).then(() => {
      if (!live) return;
      bridge.current = b;
      iframe.srcdoc = mount.html; // loaded once the bridge listens, so no message is missed
    });
    return () => {
      live = false;
      bridge.current = null;
      void b
        .teardownResource({}, { timeout: 1_000 })
        .catch(() => undefined)
        .finally(() => void b.close());
    };
  }, [store, session, mount]);

  // Host context changes travel as ui/notifications/host-context-changed, only the keys that changed.
  useEffect(() => {
    void bridge.current?.setHostContext(contextOf({ theme, displayMode, locale }));
  }, [theme, displayMode, locale]);

  const height = frameHeight({ displayMode, intrinsicHeight: intrinsic });
  return (
    <iframe
      key={mount.key}
      ref={ref}
      title="Widget"
      data-mount={mount.key}
      data-host="mcp-apps"
      className="widget-frame"
      sandbox="allow-scripts"
      style={height ? { height } : undefined}
    />
  );
}
