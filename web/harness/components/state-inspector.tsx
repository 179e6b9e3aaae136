/**
 * The inspector under the widget: the current widgetState, and what the widget was given
 * (toolInput, toolOutput, toolResponseMetadata), as pretty-printed JSON text.
 */
import { useState } from "react";
import { useHarness, type HarnessStore } from "../store.js";

const TABS = ["widgetState", "toolInput", "toolOutput", "toolResponseMetadata"] as const;
type Tab = (typeof TABS)[number];

export function StateInspector({ store }: { store: HarnessStore }) {
  const [tab, setTab] = useState<Tab>("widgetState");
  const [open, setOpen] = useState(true);
  const value = useHarness(store, (s) => (tab === "widgetState" ? s.widgetState : s.mount ? s.mount[tab] : null));
  return (
    <div className={`inspector ${open ? "open" : ""}`}>
      <div className="inspector-bar" role="tablist" aria-label="Inspector">
        {TABS.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={t === tab}
            className={t === tab ? "on" : undefined}
            onClick={() => {
              setTab(t);
              setOpen(true);
            }}
          >
            {t}
          </button>
        ))}
        <button type="button" className="link toggle" onClick={() => setOpen(!open)} aria-expanded={open}>
          {open ? "Hide" : "Show"}
        </button>
      </div>
      {open && (
        <pre className="json" aria-label={`${tab} JSON`} data-testid={`inspector-${tab}`}>
          {value === null || value === undefined ? "null" : JSON.stringify(value, null, 2)}
        </pre>
      )}
    </div>
  );
}
