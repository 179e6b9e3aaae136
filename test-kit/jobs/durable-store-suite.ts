/**
 * What a store that outlives its process must do, as one suite that SQLite and Redis both run:
 * the next process reads finished results and every event as they were, and a process killed
 * mid-job (a child, SIGKILL, no cleanup) leaves its running and waiting jobs to end as interrupted.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { employeeCsv } from "../employee-csv.js";
import { expectJobHistory } from "../job-history.js";
import { createJobService } from "../../server/jobs/job-service.js";
import { openStoreAt, type StorePlace } from "./store-place.js";
import { ALICE, history, settle, testMatch } from "./service-reads.js";

const CHILD = fileURLToPath(new URL("./durable-store-child.ts", import.meta.url));

/** The suite for a durable store; `newPlace` names a fresh, empty place for it on every call. */
export function describeDurableStore(name: string, newPlace: () => StorePlace): void {
  describe(`the ${name} store across processes`, () => {
    it("keeps finished results and every event for the next process", async () => {
      const place = newPlace();
      const first = createJobService({ store: openStoreAt(place), match: testMatch });
      const started = await first.start({ csv: employeeCsv(7_000), occasion: "farewell", budgetPerPerson: 30 }, ALICE);
      if (!started.ok) throw new Error(started.error.message);
      await settle(first, started.value.jobId);
      const events = await history(first, started.value.jobId);
      const result = await first.readResult(started.value.jobId, ALICE);
      await first.close();

      const second = createJobService({ store: openStoreAt(place), match: testMatch });
      try {
        expect(await history(second, started.value.jobId)).toEqual(events);
        expect(await second.readResult(started.value.jobId, ALICE)).toEqual(result);
      } finally {
        await second.close();
      }
    });

    it("ends the jobs a killed process left running or waiting as interrupted, and keeps the rest", async () => {
      const place = newPlace();
      const { done, running, waiting } = await killAfterProgress(place);
      const service = createJobService({ store: openStoreAt(place), match: testMatch });
      try {
        for (const [jobId, message] of [
          [running, "The server restarted while this job was running, so it stopped before finishing."],
          [waiting, "The server restarted before this job could start."],
        ]) {
          const { terminal } = expectJobHistory(await history(service, jobId));
          expect(terminal).toMatchObject({
            type: "job.failed",
            payload: {
              code: "interrupted",
              message,
              retryable: true,
              hint: "Run the analysis again with start_bulk_gift_analysis.",
            },
          });
        }
        expect((await history(service, running)).some((e) => e.type === "job.progress")).toBe(true);
        const result = await service.readResult(done, ALICE);
        expect(result.ok && result.value.people.length).toBe(40);
        expect(expectJobHistory(await history(service, done)).terminal.type).toBe("job.completed");
      } finally {
        await service.close();
      }
    });
  });
}

/**
 * Runs durable-store-child.ts on `place` (one small job to the end, a large one past its first
 * progress and one queued behind it), then kills it with no chance to clean up; returns their ids.
 */
async function killAfterProgress(place: StorePlace): Promise<Record<"done" | "running" | "waiting", string>> {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, ...place], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", () => reject(new Error("the child exited before its jobs were running")));
  });
  child.kill("SIGKILL"); // no close(), no cleanup: the process is simply gone
  await exited;
  return JSON.parse(line);
}
