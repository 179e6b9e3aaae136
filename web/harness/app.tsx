/**
 * The harness layout: a top bar (connection, host globals, reload) over three panes:
 * the controls, the widget as ChatGPT would show it, and the JSON-RPC log.
 */
import { useEffect } from "react";
import type { HarnessSession } from "./session.js";
import { useHarness, type HarnessStore } from "./store.js";
import { TopBar } from "./components/top-bar.js";
import { ControlsPane } from "./components/controls-pane.js";
import { WidgetPane } from "./components/widget-pane.js";
import { LogPane } from "./components/log-pane.js";

export type AppProps = { store: HarnessStore; session: HarnessSession };

export function App({ store, session }: AppProps) {
  const theme = useHarness(store, (s) => s.theme);
  // The harness follows the host theme it gives the widget, as ChatGPT does.
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  return (
    <div className="app">
      <TopBar store={store} session={session} />
      <main className="panes">
        <ControlsPane store={store} session={session} />
        <WidgetPane store={store} session={session} />
        <LogPane store={store} />
      </main>
    </div>
  );
}
