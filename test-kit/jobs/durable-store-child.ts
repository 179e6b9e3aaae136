/**
 * A process that dies mid-job, for the durable-store suite: on the store its arguments name
 * (`sqlite <file>` or `redis <url> <prefix>`) it finishes one job, starts a large one and queues
 * another behind it, prints their ids once the large one is under way, and works on until killed.
 */
import { employeeCsv } from "../employee-csv.js";
import { createJobService } from "../../server/jobs/job-service.js";
import { openStoreAt } from "./store-place.js";
import { ALICE, testMatch } from "./fixtures.js";

const service = createJobService({
  store: openStoreAt(process.argv.slice(2)),
  match: testMatch,
  limits: { maxConcurrentJobs: 1 },
});
const start = async (rows: number) => {
  const r = await service.start({ csv: employeeCsv(rows), occasion: "holiday", budgetPerPerson: 40 }, ALICE);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.jobId;
};

const done = await start(40);
await service.waitFor({ jobId: done, timeoutMs: 30_000 }, ALICE, () => {});
const running = await start(100_000);
const waiting = await start(5);
service.onEvent(({ event }) => {
  if (event.jobId === running && event.type === "job.progress" && event.payload.percentage >= 2) {
    process.stdout.write(`${JSON.stringify({ done, running, waiting })}\n`);
  }
});
