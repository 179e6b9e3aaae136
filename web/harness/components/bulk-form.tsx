/**
 * Calls `start_bulk_gift_analysis` with an occasion, a budget per person and a CSV, which can be
 * the bundled sample (one click) or an uploaded file.
 */
import { useState, type ChangeEvent, type FormEvent } from "react";
import { TOOL } from "../../../shared/tools.js";
import type { HarnessSession } from "../session.js";
import { useHarness, type HarnessStore } from "../store.js";
import { OccasionBudget } from "./occasion-budget.js";
import sampleCsv from "../sample-employees.csv?raw";

/** Data rows in a CSV: non-blank lines after the header (a rough count, for the label only). */
const rowCount = (csv: string) => Math.max(0, csv.split(/\r?\n/).filter((l) => l.trim()).length - 1);

export function BulkForm({ store, session }: { store: HarnessStore; session: HarnessSession }) {
  const [occasion, setOccasion] = useState("Year-end thank you");
  const [budget, setBudget] = useState("60");
  const [csv, setCsv] = useState("");
  const busy = useHarness(store, (s) => s.busy);
  const ready = useHarness(store, (s) => s.connection.status === "ready");

  const upload = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) setCsv(await file.text());
    e.target.value = "";
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void session.runTool(TOOL.startBulk, { occasion: occasion.trim(), budgetPerPerson: Number(budget), csv });
  };

  return (
    <form className="card" onSubmit={submit} aria-label="Bulk gift analysis">
      <h2>start_bulk_gift_analysis</h2>
      <OccasionBudget
        occasion={occasion}
        budget={budget}
        budgetLabel="Per person ($)"
        onOccasion={setOccasion}
        onBudget={setBudget}
      />
      <label className="field">
        <span>Employees CSV {csv.trim() && <em className="muted">{rowCount(csv)} rows</em>}</span>
        <textarea
          className="mono"
          rows={7}
          value={csv}
          onChange={(e) => setCsv(e.target.value)}
          spellCheck={false}
          placeholder="name,department,interests,budget"
        />
      </label>
      <div className="row">
        <button type="button" className="button secondary" onClick={() => setCsv(sampleCsv)}>
          Load sample CSV
        </button>
        <label className="button secondary file">
          Upload…
          <input type="file" accept=".csv,text/csv,text/plain" onChange={(e) => void upload(e)} />
        </label>
      </div>
      <button type="submit" className="button" disabled={!ready || busy !== null || !csv.trim()}>
        {busy === TOOL.startBulk ? "Starting…" : "Start bulk analysis"}
      </button>
    </form>
  );
}
