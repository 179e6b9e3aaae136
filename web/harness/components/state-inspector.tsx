/**
 * The inspector under the widget: the current widgetState, what the widget last told the model
 * (modelContext), and what the widget was given (toolInput, toolOutput, toolResponseMetadata), as
 * pretty-printed JSON text, bounded (an uploaded CSV of megabytes in toolInput shows its start and
 * its length), and worked out only when it changes.
 */
import { useMemo, useState } from "react";
import { previewJson } from "../log/json-preview.js";
import { useHarness, type HarnessStore } from "../store.js";

const TABS = ["widgetState", "modelContext", "toolInput", "toolOutput", "toolResponseMetadata"] as const;
type Tab = (typeof TABS)[number];

export function StateInspector({ store }: { store: HarnessStore }) {
  const [tab, setTab] = useState<Tab>("widgetState");
  const [open, setOpen] = useState(true);
  const value = useHarness(store, (s) =>
    tab === "widgetState" || tab === "modelContext" ? s[tab] : s.mount ? s.mount[tab] : null,
  );
  const text = useMemo(() => (open ? previewJson(value ?? null) : ""), [open, value]);
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
          {text}
        </pre>
      )}
    </div>
  );
}
