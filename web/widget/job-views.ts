/**
 * The widget's job views: zustand (vanilla) over the shared reducer. The feed cursor (highest
 * contiguous seq) and diagnostics live beside the folds, never inside them.
 */
import { createContext, useContext } from "react";
import { useStore } from "zustand";
import { createStore, type StoreApi } from "zustand/vanilla";
import type { JobEvent } from "../../shared/job-events.js";
import { applyJobEvents, createJobFold, type JobFold } from "../../shared/job-reducer.js";
import { isFinished, type JobStatus } from "../../shared/job-view.js";
import type { ToolFailure } from "./tool-reply.js";

/** Which seqs of a job were applied: all up to `contiguous`, plus the few `ahead` of a gap. */
type FeedCursor = { contiguous: number; ahead: number[] };
type FeedDiagnostics = {
  batches: number;
  events: number;
  /** Events whose seq had been applied already, ignored by the reducer. */
  duplicates: number;
  failures: number;
  /** Cleared by the next batch that arrives. */
  lastError: ToolFailure | null;
  /** A reply found the job not yet ended: this card watched it run (one opened on an ended job did not). */
  watched: boolean;
};
export type JobViewsState = {
  jobs: Record<string, JobFold>;
  cursors: Record<string, FeedCursor>;
  diagnostics: Record<string, FeedDiagnostics>;
  /** The view object stays the same when nothing changed; `status` is the job's as the batch was read. */
  dispatch(jobId: string, events: readonly JobEvent[], status?: JobStatus): void;
  noteFailure(jobId: string, error: ToolFailure): void;
};
export type JobViews = StoreApi<JobViewsState>;

const START: FeedCursor = { contiguous: 0, ahead: [] };
const NO_DIAGNOSTICS: FeedDiagnostics = {
  batches: 0,
  events: 0,
  duplicates: 0,
  failures: 0,
  lastError: null,
  watched: false,
};

/** Marks seqs applied and moves `contiguous` over every gap that is now filled. */
function advance(cursor: FeedCursor, events: readonly JobEvent[]): { cursor: FeedCursor; duplicates: number } {
  let { contiguous } = cursor;
  const ahead = new Set(cursor.ahead);
  let duplicates = 0;
  for (const { seq } of events) {
    if (seq <= contiguous || ahead.has(seq)) duplicates++;
    else ahead.add(seq);
  }
  while (ahead.delete(contiguous + 1)) contiguous++;
  if (contiguous === cursor.contiguous && ahead.size === cursor.ahead.length) return { cursor, duplicates };
  return { cursor: { contiguous, ahead: [...ahead].sort((a, b) => a - b) }, duplicates };
}

export function createJobViews(): JobViews {
  return createStore<JobViewsState>()((set) => ({
    jobs: {},
    cursors: {},
    diagnostics: {},
    dispatch: (jobId, events, status) =>
      set((s) => {
        const mine = events.filter((e) => e.jobId === jobId);
        const view = applyJobEvents(s.jobs[jobId] ?? createJobFold(jobId), mine);
        const { cursor, duplicates } = advance(s.cursors[jobId] ?? START, mine);
        const d = s.diagnostics[jobId] ?? NO_DIAGNOSTICS;
        return {
          jobs: view === s.jobs[jobId] ? s.jobs : { ...s.jobs, [jobId]: view },
          cursors: cursor === s.cursors[jobId] ? s.cursors : { ...s.cursors, [jobId]: cursor },
          diagnostics: {
            ...s.diagnostics,
            [jobId]: {
              ...d,
              batches: d.batches + 1,
              events: d.events + mine.length,
              duplicates: d.duplicates + duplicates,
              lastError: null,
              watched: d.watched || (status !== undefined && !isFinished(status)),
            },
          },
        };
      }),
    noteFailure: (jobId, error) =>
      set((s) => {
        const d = s.diagnostics[jobId] ?? NO_DIAGNOSTICS;
        return { diagnostics: { ...s.diagnostics, [jobId]: { ...d, failures: d.failures + 1, lastError: error } } };
      }),
  }));
}

/** The highest seq below which nothing is missing: what `get_job_events` should resume after. */
export const selectAfterSeq = (s: JobViewsState, jobId: string): number => s.cursors[jobId]?.contiguous ?? 0;

/** Hands a zustand store from <App> to the components: a context, a selecting hook, and the store itself. */
export function createStoreContext<S>(name: string) {
  const Context = createContext<StoreApi<S> | null>(null);
  function useApi(): StoreApi<S> {
    const store = useContext(Context);
    if (store === null) throw new Error(`${name} needs a <${name}Context.Provider>`);
    return store;
  }
  const useSelect = <U>(selector: (s: S) => U): U => useStore(useApi(), selector);
  return [Context, useSelect, useApi] as const;
}

export const [JobViewsContext, useJobViews, useJobViewsApi] = createStoreContext<JobViewsState>("JobViews");
