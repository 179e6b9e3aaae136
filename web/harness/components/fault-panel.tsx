/**
 * The fault switches for the widget's `get_job_events` replies: duplicates, shuffling across
 * batches, delay, and a one-shot dropped reply. The widget's final view must not change. And one
 * for uploads: a lost `put_file_chunk` reply, which the widget retries. And a host that runs one
 * call at a time (MCPJam), refusing the widget's next call while one is in flight; and MCPJam's
 * other quirks: replies whose `isError` is always false, a form that adds empty objects.
 */
import type { ReactNode } from "react";
import type { FaultConfig } from "../faults/faults.js";
import { useHarness, type HarnessStore } from "../store.js";

/** The faults that are on or off. */
type SwitchName = { [K in keyof FaultConfig]: FaultConfig[K] extends boolean ? K : never }[keyof FaultConfig];
type SwitchProps = { store: HarnessStore; name: SwitchName; oneShot?: boolean; children: ReactNode };

/** One fault switched on or off; a one-shot fault says it is armed until it fires. */
function Switch({ store, name, oneShot = false, children }: SwitchProps) {
  const on = useHarness(store, (s) => s.faults[name]);
  return (
    <label className="check">
      <input type="checkbox" checked={on} onChange={(e) => store.getState().setFaults({ [name]: e.target.checked })} />
      <span>
        {children}
        {oneShot && on && (
          <>
            {" "}
            <em className="pill warn">armed</em>
          </>
        )}
      </span>
    </label>
  );
}

export function FaultPanel({ store }: { store: HarnessStore }) {
  const faults = useHarness(store, (s) => s.faults);
  const set = store.getState().setFaults;
  const active =
    faults.duplicates > 1 ||
    faults.shuffle ||
    faults.delayMs > 0 ||
    faults.dropNext ||
    faults.dropNextChunk ||
    faults.oneCallAtATime ||
    faults.dropIsError ||
    faults.emptyObjects;
  return (
    <fieldset className="card faults" aria-label="Fault injection">
      <legend>
        <h2>Fault injection</h2>
        <span className={`pill ${active ? "warn" : ""}`}>{active ? "active" : "off"}</span>
      </legend>
      <p className="hint">
        Applied to the get_job_events replies the widget receives, to its uploads, and to the host's quirks.
      </p>
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
      <Switch store={store} name="shuffle">
        Shuffle within and across batches
      </Switch>
      <Switch store={store} name="dropNext" oneShot>
        Drop the next reply
      </Switch>
      <Switch store={store} name="dropNextChunk" oneShot>
        Drop the next put_file_chunk reply
      </Switch>
      <Switch store={store} name="oneCallAtATime">
        One call at a time (refuse the widget's next call meanwhile, as MCPJam does)
      </Switch>
      <Switch store={store} name="dropIsError">
        Drop isError (the widget's replies say isError: false, as MCPJam's do)
      </Switch>
      <Switch store={store} name="emptyObjects">
        Empty objects (the form adds file: {"{}"} and reading: {"{}"} to a bulk start, as MCPJam's does)
      </Switch>
    </fieldset>
  );
}
