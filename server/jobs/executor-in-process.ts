/**
 * The executor of memory and SQLite stores: jobs run in this process, beside the service, one slice
 * of one job per turn of the event loop.
 */
import { interrupted, type CreateExecutor } from "./executor.js";
import { LiveJobs } from "./live-jobs.js";
import { runJob } from "./run-job.js";
import { SliceTurns } from "./runner/slice-turns.js";
import { jobTexts } from "./runner/texts.js";
import { createScheduler } from "./scheduler.js";

/**
 * Runs jobs in this process, at most `limits.maxConcurrentJobs` at once: for a store one process
 * owns (memory, SQLite), where whatever is unfinished at start-up was cut off by the last process.
 */
export const createInProcessExecutor: CreateExecutor = (context) => {
  const { store, limits, match, end } = context;
  const scheduler = createScheduler(limits.maxConcurrentJobs);
  // one slice of one job per turn of the event loop, however many jobs run
  const slices = new SliceTurns();
  /** Jobs of this process that have not ended, with the switch that stops them. */
  const live = new LiveJobs();

  return {
    async recover() {
      for (const job of await store.listUnfinished()) {
        if (live.has(job.jobId)) continue; // this process's own, started since a failed first try
        const message =
          job.status === "running"
            ? "The server restarted while this job was running, so it stopped before finishing."
            : "The server restarted before this job could start.";
        await end(job.jobId, job.owner, interrupted(message));
      }
    },
    async submit({ jobId, owner, plan, runOptions, locale }) {
      const signal = live.add(jobId, owner);
      const run = { ...plan, jobId, maxRows: limits.maxRows, match, runOptions, texts: jobTexts(locale ?? "en") };
      scheduler.enqueue(jobId, async () => {
        try {
          await runJob(context, slices, run, owner, signal);
        } finally {
          live.delete(jobId);
        }
      });
    },
    stop(jobId) {
      scheduler.remove(jobId);
      live.abort(jobId);
      live.delete(jobId);
    },
    async close() {
      const stopped = live.abortAll();
      await scheduler.close();
      await live.endStopped(stopped, end);
    },
  };
};
