/**
 * The harness's entry: one store (remembered in this origin's localStorage), one session against
 * `/mcp` on this origin, the app on screen; connecting shows again what was on screen before a reload.
 */
import { createRoot } from "react-dom/client";
import { App } from "./app.js";
import { createHarnessStore } from "./store.js";
import { createHarnessSession } from "./session.js";
import "./harness.css";

const store = createHarnessStore(Date.now, window.localStorage);
const session = createHarnessSession(store, new URL("/mcp", window.location.href));

createRoot(document.getElementById("root")!).render(<App store={store} session={session} />);
void session.connect();
window.addEventListener("pagehide", () => void session.close());
