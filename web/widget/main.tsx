/**
 * The widget's entry point: connects to its host (MCP Apps, or ChatGPT's `window.openai`) and
 * renders the app; when the host tears the widget down, the app unmounts and its loops stop.
 */
import { createRoot } from "react-dom/client";
import { App } from "./app.js";
import { createHost } from "./host-context.js";
import "./styles.css";

const root = document.getElementById("root");
if (root !== null) {
  const host = createHost();
  const app = createRoot(root);
  app.render(<App host={host} />);
  host.onTeardown(() => {
    app.unmount();
    host.dispose();
  });
}
