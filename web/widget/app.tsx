/**
 * The widget's root: provides the host and the stores, applies theme, height and language, and
 * picks the view from the shape of `toolOutput` in the display mode its view was left in.
 */
import { useMemo, useState } from "react";
import * as z from "zod/mini";
import { ToolErrorSchema } from "../../shared/errors.js";
import { AwaitingFileSchema, type AwaitingFile } from "../../shared/files.js";
import { StartBulkOutput, SuggestGiftsOutput } from "../../shared/tools.js";
import { BulkJob, type FollowedJob } from "./components/bulk-job.js";
import { FailureText } from "./components/failure-text.js";
import { GiftCards } from "./components/gift-list.js";
import { StaffFile } from "./components/staff-file.js";
import { FollowStateSchema, type FollowTuning } from "./follow-job.js";
import { HostContext, useHost, useHostGlobal } from "./host-context.js";
import type { Host } from "./host.js";
import { useMessages } from "./i18n.js";
import { createJobViews, JobViewsContext, type JobViews } from "./job-views.js";
import { createResultStore, ResultStoreContext, type ResultStore } from "./result-store.js";
import { useDisplayModeKept } from "./view-state.js";

const ErrorOutput = z.object({ error: ToolErrorSchema });

export type AppProps = { host: Host; jobStore?: JobViews; resultStore?: ResultStore; tuning?: FollowTuning };

export function App({ host, jobStore, resultStore, tuning }: AppProps) {
  const jobs = useMemo(() => jobStore ?? createJobViews(), [jobStore]);
  const results = useMemo(() => resultStore ?? createResultStore(), [resultStore]);
  return (
    <HostContext.Provider value={host}>
      <JobViewsContext.Provider value={jobs}>
        <ResultStoreContext.Provider value={results}>
          <Frame tuning={tuning} />
        </ResultStoreContext.Provider>
      </JobViewsContext.Provider>
    </HostContext.Provider>
  );
}

function Frame({ tuning }: { tuning?: FollowTuning }) {
  const t = useMessages();
  const connection = useHostGlobal("connection");
  const theme = useHostGlobal("theme");
  const maxHeight = useHostGlobal("maxHeight");
  const locale = useHostGlobal("locale");
  // fullscreen, the document scrolls (the result table follows it), never a box inside it
  const fullscreen = useHostGlobal("displayMode") === "fullscreen";
  const style = maxHeight === null || fullscreen ? undefined : { maxHeight };
  return (
    <div className="gg-root" data-theme={theme} lang={locale} style={style}>
      {connection === "ready" ? (
        <Content tuning={tuning} />
      ) : connection === "none" ? (
        <p className="gg-panel" role="alert">
          {t.noHost}
        </p>
      ) : (
        <p className="gg-panel gg-muted">{t.connecting}</p>
      )}
    </div>
  );
}

const SAID = { waiting: "waitingForTool", cancelled: "toolCancelled", nothing: "nothingToShow" } as const;

type Chosen =
  | { kind: "gifts"; result: z.infer<typeof SuggestGiftsOutput> }
  | { kind: "job"; job: FollowedJob }
  | { kind: "file"; request: AwaitingFile }
  | { kind: "error"; error: z.infer<typeof ToolErrorSchema> }
  | { kind: keyof typeof SAID };

/** Parses toolOutput and widgetState; a widget state naming a job wins, as it may be a retried job. */
function choose(toolOutput: unknown, widgetState: unknown, cancelled: boolean): Chosen {
  const gifts = SuggestGiftsOutput.safeParse(toolOutput);
  if (gifts.success) return { kind: "gifts", result: gifts.data };
  const bulk = StartBulkOutput.safeParse(toolOutput);
  const saved = FollowStateSchema.safeParse(widgetState);
  if (saved.success) {
    const stages = bulk.success && bulk.data.jobId === saved.data.jobId ? bulk.data.stages : [];
    return { kind: "job", job: { jobId: saved.data.jobId, stages } };
  }
  if (bulk.success) return { kind: "job", job: { jobId: bulk.data.jobId, stages: bulk.data.stages } };
  const awaiting = AwaitingFileSchema.safeParse(toolOutput);
  if (awaiting.success) return { kind: "file", request: awaiting.data };
  const failed = ErrorOutput.safeParse(toolOutput);
  if (failed.success) return { kind: "error", error: failed.data.error };
  if (toolOutput === null) return cancelled ? { kind: "cancelled" } : { kind: "waiting" };
  return { kind: "nothing" };
}

function Content({ tuning }: { tuning?: FollowTuning }) {
  const t = useMessages();
  useDisplayModeKept();
  const toolOutput = useHostGlobal("toolOutput");
  // widget state is read once: later writes are the loop's own progress, not a new job to follow
  const host = useHost();
  const [initialState] = useState(() => host.getGlobals().widgetState);
  const cancelled = useHostGlobal("toolCancelled");
  const chosen = useMemo(() => choose(toolOutput, initialState, cancelled), [toolOutput, initialState, cancelled]);
  switch (chosen.kind) {
    case "gifts":
      return <GiftCards result={chosen.result} />;
    case "job":
      return <BulkJob key={chosen.job.jobId} initial={chosen.job} tuning={tuning} />;
    case "file":
      return <StaffFile request={chosen.request} tuning={tuning} />;
    case "error":
      return (
        <div className="gg-panel">
          <FailureText error={chosen.error} />
        </div>
      );
    default:
      return <p className="gg-panel gg-muted">{t[SAID[chosen.kind]]}</p>;
  }
}
