/**
 * For component tests: the job panel of `job-1` rendered inside the widget's providers (host, job
 * views, result pages) over a fake `window.openai`, with what a test reaches for, and the clean-up.
 */
import { render } from "@testing-library/react";
import type { Stage } from "../../shared/job-events.js";
import { JobPanel } from "../../web/widget/components/job-panel.js";
import { installFakeHost, type FakeHost } from "./fake-host.js";
import { createHost, HostContext } from "../../web/widget/host-context.js";
import type { Host } from "../../web/widget/host.js";
import { createJobViews, JobViewsContext, type JobViews } from "../../web/widget/job-views.js";
import { createResultStore, ResultStoreContext } from "../../web/widget/result-store.js";

export type MountedPanel = { fake: FakeHost; host: Host; store: JobViews; dispose(): void };

/**
 * Renders `<JobPanel jobId="job-1">` over a fake host made with `hostOptions`, in fullscreen unless
 * they say otherwise: the whole panel, stage list and result table included.
 */
export function mountJobPanel(
  hostOptions: Parameters<typeof installFakeHost>[0] = {},
  plannedStages: Stage[] = [],
): MountedPanel {
  const fake = installFakeHost({ displayMode: "fullscreen", ...hostOptions });
  const host = createHost();
  const store = createJobViews();
  const { unmount } = render(
    <HostContext.Provider value={host}>
      <JobViewsContext.Provider value={store}>
        <ResultStoreContext.Provider value={createResultStore()}>
          <JobPanel jobId="job-1" plannedStages={plannedStages} />
        </ResultStoreContext.Provider>
      </JobViewsContext.Provider>
    </HostContext.Provider>,
  );
  let disposed = false;
  return {
    fake,
    host,
    store,
    dispose() {
      if (disposed) return;
      disposed = true;
      unmount();
      host.dispose();
      fake.uninstall();
    },
  };
}
