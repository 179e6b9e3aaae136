/**
 * The fault switches for the widget's `get_job_events` replies: duplicates, shuffling across
 * batches, delay, and a one-shot dropped reply. The widget's final view must not change. And one
 * for uploads: a lost `put_file_chunk` reply, which the widget retries. And a host that runs one
 * call at a time (MCPJam), refusing the widget's next call while one is in flight.
 */
import { useHarness, type HarnessStore } from "../store.js";

export function FaultPanel({ store }: { store: HarnessStore }) {
  const faults = useHarness(store, (s) => s.faults);
  const set = store.getState().setFaults;
  const active =
    faults.duplicates > 1 ||
    faults.shuffle ||
    faults.delayMs > 0 ||
    faults.dropNext ||
    faults.dropNextChunk ||
    faults.oneCallAtATime;
  return (
    <fieldset className="card faults" aria-label="Fault injection">
      <legend>
        <h2>Fault injection</h2>
        <span className={`pill ${active ? "warn" : ""}`}>{active ? "active" : "off"}</span>
      </legend>
      <p className="hint">Applied to the get_job_events replies the widget receives, and to its uploads.</p>
      <div className="row">
        <label className="field narrow">
          <span>Duplicates ×</span>
          <input
            type="number"
            min="1"
            max="10"
            value={faults.duplicates}
            onChange={(e) => set({ duplicates: Math.min(10, Math.max(1, Math.floor(Number(e.target.value) || 1))) })}
          />
        </label>
        <label className="field narrow">
          <span>Delay (ms)</span>
          <input
            type="number"
            min="0"
            step="50"
            value={faults.delayMs}
            onChange={(e) => set({ delayMs: Math.max(0, Math.floor(Number(e.target.value) || 0)) })}
          />
        </label>
      </div>
      <label className="check">
        <input type="checkbox" checked={faults.shuffle} onChange={(e) => set({ shuffle: e.target.checked })} />
        <span>Shuffle within and across batches</span>
      </label>
      <label className="check">
        <input type="checkbox" checked={faults.dropNext} onChange={(e) => set({ dropNext: e.target.checked })} />
        <span>Drop the next reply {faults.dropNext && <em className="pill warn">armed</em>}</span>
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={faults.dropNextChunk}
          onChange={(e) => set({ dropNextChunk: e.target.checked })}
        />
        <span>Drop the next put_file_chunk reply {faults.dropNextChunk && <em className="pill warn">armed</em>}</span>
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={faults.oneCallAtATime}
          onChange={(e) => set({ oneCallAtATime: e.target.checked })}
        />
        <span>One call at a time (refuse the widget's next call meanwhile, as MCPJam does)</span>
      </label>
    </fieldset>
  );
}
