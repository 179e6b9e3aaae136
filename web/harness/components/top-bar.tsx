/**
 * The top bar: the harness's name, the MCP connection, the protocol revision it speaks, the kind
 * of host, the host globals the widget sees (theme, display mode, locale) and "Reload widget".
 */
import type { HarnessSession } from "../session.js";
import { useHarness, type HarnessStore } from "../store.js";
import { Segmented } from "./segmented.js";
import { GiftIcon } from "./gift-icon.js";
import type { DisplayMode, Theme } from "../../host-globals.js";
import type { HostKind } from "../bridge/globals.js";
import { PROTOCOLS, type Protocol } from "../mcp/connection.js";

const PROTOCOL_OPTIONS = PROTOCOLS.map((p) => ({ value: p, label: p }));

const HOST_OPTIONS = [
  { value: "openai", label: "ChatGPT (window.openai)" },
  { value: "mcp-apps", label: "MCP Apps (AppBridge)" },
] as const;
const THEME_OPTIONS = [
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
] as const;
const MODE_OPTIONS = [
  { value: "inline", label: "Inline" },
  { value: "fullscreen", label: "Fullscreen" },
  { value: "pip", label: "PiP" },
] as const;
const LOCALE_OPTIONS = [
  { value: "en-US", label: "en-US" },
  { value: "ko-KR", label: "ko-KR" },
] as const;

export function TopBar({ store, session }: { store: HarnessStore; session: HarnessSession }) {
  const connection = useHarness(store, (s) => s.connection);
  const protocol = useHarness(store, (s) => s.protocol);
  const hostKind = useHarness(store, (s) => s.hostKind);
  const theme = useHarness(store, (s) => s.theme);
  const displayMode = useHarness(store, (s) => s.displayMode);
  const locale = useHarness(store, (s) => s.locale);
  const mounted = useHarness(store, (s) => s.mount !== null);
  const a = store.getState();
  return (
    <header className="top-bar">
      <div className="brand">
        <span className="brand-mark">
          <GiftIcon />
        </span>
        <span className="brand-name">GiftGenius</span>
        <span className="brand-sub">host harness</span>
      </div>
      <div className={`connection ${connection.status}`} role="status" aria-live="polite">
        <span className="dot" aria-hidden="true" />
        {connection.status === "ready" && (
          <span title={connection.sessionId ?? undefined}>
            {connection.server} · {connection.protocol} ·{" "}
            {connection.sessionId ? `session ${connection.sessionId.slice(0, 8)}` : "stateless"}
          </span>
        )}
        {connection.status === "connecting" && <span>Connecting to /mcp…</span>}
        {connection.status === "error" && (
          <>
            <span>{connection.error}</span>
            <button type="button" className="link" onClick={() => void session.connect()}>
              Reconnect
            </button>
          </>
        )}
      </div>
      <div className="globals">
        <Segmented<Protocol>
          label="Protocol"
          value={protocol}
          options={PROTOCOL_OPTIONS}
          onChange={(p) => void session.setProtocol(p)}
        />
        <Segmented<HostKind> label="Host" value={hostKind} options={HOST_OPTIONS} onChange={a.setHostKind} />
        <Segmented<Theme> label="Theme" value={theme} options={THEME_OPTIONS} onChange={a.setTheme} />
        <Segmented<DisplayMode>
          label="Display"
          value={displayMode}
          options={MODE_OPTIONS}
          onChange={a.setDisplayMode}
        />
        <Segmented<string> label="Locale" value={locale} options={LOCALE_OPTIONS} onChange={a.setLocale} />
        <button
          type="button"
          className="button secondary"
          disabled={!mounted}
          onClick={a.reloadWidget}
          title="Re-create the iframe, keeping widgetState"
        >
          ↻ Reload widget
        </button>
      </div>
    </header>
  );
}
