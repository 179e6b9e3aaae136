/**
 * The left pane: what the model would do (call a tool with arguments), the jobs started so far
 * (to open one again), and what the network would do to the widget's replies (faults). A failed
 * action is explained at the top.
 */
import type { HarnessSession } from "../session.js";
import { useHarness, type HarnessStore } from "../store.js";
import { SuggestForm } from "./suggest-form.js";
import { BulkForm } from "./bulk-form.js";
import { FaultPanel } from "./fault-panel.js";
import { RecentJobs } from "./recent-jobs.js";

export function ControlsPane({ store, session }: { store: HarnessStore; session: HarnessSession }) {
  const problem = useHarness(store, (s) => s.problem);
  return (
    <section className="pane controls" aria-label="Controls">
      {problem && (
        <div className="problem" role="alert">
          <span>{problem}</span>
          <button type="button" className="link" onClick={() => store.getState().setProblem(null)} aria-label="Dismiss">
            ✕
          </button>
        </div>
      )}
      <BulkForm store={store} session={session} />
      <RecentJobs store={store} session={session} />
      <SuggestForm store={store} session={session} />
      <FaultPanel store={store} />
    </section>
  );
}
