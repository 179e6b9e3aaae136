/**
 * The widget's entry point: builds the host bridge over `window.openai` and renders the app.
 */
import { createRoot } from "react-dom/client";
import { App } from "./app.js";
import { createHost } from "./host.js";
import "./styles.css";

const root = document.getElementById("root");
if (root !== null) createRoot(root).render(<App host={createHost()} />);
