/**
 * The ETA is honest: on jobs of several sizes, every ETA from 20 % on is within 25 % of the time
 * the job then actually took (while half a second or more was left, below which the ETA's 0.1 s
 * rounding dominates). It runs with the load tests, alone on the machine: another file's work
 * would slow one stage and not the others.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "./job-service.js";
import { createSqliteStore } from "./stores/sqlite.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { etaErrors, worstError, type SeenReport } from "../../test-kit/eta-error.js";

const CALLER = { subject: "eta" };
let dir: string;
beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), "eta-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a job of `rows` people; its progress reports and when it ended. */
async function seenJob(rows: number) {
  const jobs = createJobService({ store: createSqliteStore(join(dir, `jobs-${rows}.db`)), match: matchGifts });
  const reports: SeenReport[] = [];
  let endedAt = 0;
  jobs.onEvent(({ event }) => {
    if (event.type === "job.progress") reports.push({ at: performance.now(), ...event.payload });
    if (event.type === "job.completed") endedAt = performance.now();
  });
  try {
    const started = await jobs.start(
      { csv: employeeCsv(rows, { seed: rows }), occasion: "holiday", budgetPerPerson: 50 },
      CALLER,
    );
    if (!started.ok) throw new Error(started.error.message);
    const waited = await jobs.waitFor({ jobId: started.value.jobId, timeoutMs: 120_000 }, CALLER, () => {});
    expect(waited.ok && waited.value.view.status).toBe("completed");
    return { reports, endedAt };
  } finally {
    await jobs.close();
  }
}

it("warms up", async () => void (await seenJob(5_000)));

it.each([50_000, 75_000, 100_000])(
  "a job of %i people: every ETA from a fifth of the way on is within a quarter of the truth",
  async (rows) => {
    const { reports, endedAt } = await seenJob(rows);
    const errors = etaErrors(reports, endedAt);
    expect(errors.length).toBeGreaterThan(10); // the job ran long enough to be judged
    expect(Math.abs(worstError(errors))).toBeLessThanOrEqual(0.25);
  },
);
