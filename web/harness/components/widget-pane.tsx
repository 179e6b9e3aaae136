/**
 * The middle pane: the tool call as a chat turn, the widget in the chosen display mode
 * (inline in the conversation, fullscreen over it, or picture-in-picture), follow-ups the widget
 * sent, and the inspector below.
 */
import type { HarnessSession } from "../session.js";
import { useHarness, type HarnessStore } from "../store.js";
import { AppBridgeFrame } from "./app-bridge-frame.js";
import { WidgetFrame } from "./widget-frame.js";
import { StateInspector } from "./state-inspector.js";
import { GiftIcon } from "./gift-icon.js";
import { clockTime } from "../log/clock.js";

/** The call as a one-line signature, long values shortened. */
function signature(name: string, input: Record<string, unknown>): string {
  const args = Object.entries(input).map(([k, v]) => {
    const text = typeof v === "string" ? JSON.stringify(v.length > 28 ? `${v.slice(0, 28)}…` : v) : JSON.stringify(v);
    return `${k}: ${text}`;
  });
  return `${name}({ ${args.join(", ")} })`;
}

export function WidgetPane({ store, session }: { store: HarnessStore; session: HarnessSession }) {
  const mount = useHarness(store, (s) => s.mount);
  const displayMode = useHarness(store, (s) => s.displayMode);
  const followUps = useHarness(store, (s) => s.followUps);
  const hostKind = useHarness(store, (s) => s.hostKind);
  const Frame = hostKind === "mcp-apps" ? AppBridgeFrame : WidgetFrame;
  return (
    <section className="pane stage-pane" aria-label="Widget">
      <div className={`stage mode-${displayMode}`}>
        {!mount && (
          <div className="empty">
            <div className="empty-icon">
              <GiftIcon size={40} />
            </div>
            <p>Call a tool on the left. Its result mounts the widget here, as ChatGPT would show it.</p>
          </div>
        )}
        {mount && (
          <div className="conversation">
            <div className="turn tool-turn">
              <span className="turn-label">Tool call · {clockTime(mount.at)}</span>
              <code className="call-signature">{signature(mount.toolName, mount.toolInput)}</code>
              {mount.isError && <span className="pill error">isError</span>}
            </div>
            <div className={`widget-shell ${displayMode}`}>
              {displayMode !== "inline" && (
                <div className="shell-bar">
                  <span>{displayMode === "pip" ? "Picture-in-picture" : "Fullscreen"}</span>
                  <button type="button" className="link" onClick={() => store.getState().setDisplayMode("inline")}>
                    Back inline
                  </button>
                </div>
              )}
              <Frame key={`${hostKind}:${mount.key}`} store={store} session={session} mount={mount} />
            </div>
            {followUps.map((prompt, i) => (
              <div key={i} className="turn user-turn">
                <span className="turn-label">Follow-up from the widget</span>
                <p>{prompt}</p>
              </div>
            ))}
          </div>
        )}
      </div>
      <StateInspector store={store} />
    </section>
  );
}
