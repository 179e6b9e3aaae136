/**
 * Starts a job (startAnalysis) and follows it: long-polls `get_job_events` after the highest
 * contiguous seq applied (a gap is fetched again), dispatches each batch into the job views,
 * persists { jobId } as widget state and backs off with jitter on failure. One loop per job.
 */
import * as z from "zod/mini";
import { isFinished } from "../../shared/job-view.js";
import { GetJobEventsOutput, StartBulkOutput, TOOL, type StartBulkArgs } from "../../shared/tools.js";
import type { Host } from "./host.js";
import { selectAfterSeq, type JobViews } from "./job-views.js";
import { localFailure, type ToolOutcome } from "./tool-reply.js";

export type BackoffOptions = { baseMs: number; maxMs: number };
const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 250, maxMs: 10_000 };

/** base·2^attempt capped at max, jittered into its upper half so widgets failing together do not retry in step. */
export function backoffDelay(attempt: number, { baseMs, maxMs } = DEFAULT_BACKOFF, random = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** Resolves after `ms`, or at once when `signal` aborts (an unmounted widget never waits out a delay). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}

/** What the widget persists with `setWidgetState`: the job it follows (a retry starts another). */
export const FollowStateSchema = z.object({ jobId: z.string().check(z.minLength(1)) });

/** Short: where hosts run one call at a time, Cancel waits for this poll (call-lane.ts); events wake it anyway. */
const POLL_WAIT_MS = 1_500;

/** A poll unanswered this long after its wait is lost: a server gone mid-reply can leave the host's call hanging. */
const CALL_GRACE_MS = 5_000;

export type FollowTuning = {
  waitMs?: number;
  backoff?: BackoffOptions;
  callTimeoutMs?: number;
  /** Pause after a reply that brought nothing new, so a host that ignores waitMs is not hammered. */
  idleMs?: number;
  random?: () => number;
};
type FollowOptions = FollowTuning & { host: Host; store: JobViews; jobId: string };

/** Starts an analysis, in the person's language where their host says it (over the model's word). */
export function startAnalysis(host: Host, input: StartBulkArgs) {
  const { locale, localeFromHost } = host.getGlobals();
  return host.callTool(TOOL.startBulk, localeFromHost ? { ...input, locale } : input, StartBulkOutput);
}

type Loop = { refs: number; controller: AbortController };
const loops = new Map<string, Loop>();

/** Follows `jobId` or joins its loop; the loop stops once every caller released it, or the job is settled. */
export function followJob(options: FollowOptions): () => void {
  const { jobId } = options;
  const loop: Loop = loops.get(jobId) ?? { refs: 0, controller: new AbortController() };
  if (!loops.has(jobId)) {
    loops.set(jobId, loop);
    void run(options, loop.controller.signal).finally(() => {
      if (loops.get(jobId) === loop) loops.delete(jobId);
    });
  }
  loop.refs++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--loop.refs > 0) return;
    loop.controller.abort();
    if (loops.get(jobId) === loop) loops.delete(jobId);
  };
}

/** Resolves with the call's outcome, a timeout failure, or null once aborted. */
export function race<T>(call: Promise<ToolOutcome<T>>, ms: number, signal: AbortSignal) {
  const controller = new AbortController();
  const stop = () => controller.abort();
  signal.addEventListener("abort", stop);
  const timeout = sleep(ms, controller.signal).then((): ToolOutcome<T> | null =>
    signal.aborted ? null : { ok: false, error: localFailure("timeout") },
  );
  return Promise.race([call, timeout]).finally(() => {
    stop();
    signal.removeEventListener("abort", stop);
  });
}

/** The job is over and no event before its last one is missing. */
function isSettled(store: JobViews, jobId: string): boolean {
  const state = store.getState();
  const view = state.jobs[jobId];
  return view !== undefined && isFinished(view.status) && selectAfterSeq(state, jobId) >= view.lastSeq;
}

async function run(o: FollowOptions, signal: AbortSignal): Promise<void> {
  const { host, store, jobId, waitMs = POLL_WAIT_MS } = o;
  let attempt = 0;
  host.setWidgetState({ jobId } satisfies z.infer<typeof FollowStateSchema>).catch(() => undefined);
  while (!signal.aborted) {
    const afterSeq = selectAfterSeq(store.getState(), jobId);
    if (isSettled(store, jobId)) return;
    // nothing shown yet (a first render, or a widget that came back): ask without waiting
    const args = { jobId, afterSeq, waitMs: afterSeq === 0 ? 0 : waitMs };
    const call = host.callTool(TOOL.getJobEvents, args, GetJobEventsOutput);
    const reply = await race(call, o.callTimeoutMs ?? waitMs + CALL_GRACE_MS, signal);
    if (reply === null || signal.aborted) return;
    if (!reply.ok) {
      store.getState().noteFailure(jobId, reply.error);
      if (!reply.error.transient) return;
      await sleep(backoffDelay(attempt++, o.backoff, o.random), signal);
      continue;
    }
    attempt = 0;
    store.getState().dispatch(jobId, reply.value.events, reply.value.status);
    const moved = selectAfterSeq(store.getState(), jobId) !== afterSeq;
    if (!moved && !isSettled(store, jobId)) await sleep(o.idleMs ?? 250, signal);
  }
}
