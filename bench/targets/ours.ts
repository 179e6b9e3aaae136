/**
 * Benchmark target: our server as `server/main.ts` wires it, with the in-memory job store so no
 * disk is measured. BENCH_MAX_JOBS raises the job concurrency limit (the scale run does).
 * Prints `{"port":…}` once it listens; ends on SIGTERM.
 */
import { matchGifts } from "../../server/gifts/matcher.js";
import { createJobService } from "../../server/jobs/job-service.js";
import { createMemoryStore } from "../../server/jobs/stores/memory.js";
import { serveTarget } from "./serve.js";

const maxConcurrentJobs = process.env.BENCH_MAX_JOBS ? Number(process.env.BENCH_MAX_JOBS) : undefined;
// every benchmark client is the same anonymous subject, so the per-subject quotas are lifted
const jobs = createJobService({
  store: createMemoryStore(),
  match: matchGifts,
  limits: {
    maxConcurrentJobs,
    maxUnfinishedPerSubject: Infinity,
    maxStartsPerHour: Infinity,
    maxStoredBytesPerSubject: Infinity,
  },
});
serveTarget(jobs);
