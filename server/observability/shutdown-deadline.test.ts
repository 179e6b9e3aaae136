/**
 * The shutdown's own clock, injected: a job service that never finishes closing is cut off at the
 * deadline with exit 1 and the line that says so, and a second signal starts nothing; one that
 * finishes exits 0 before its deadline.
 */
import pino from "pino";
import { createShutdown, type ShutdownOptions } from "./shutdown.js";

/** A shutdown whose sleeps resolve at once and whose deadline timer is run by hand. */
function shutdownWith(closeJobs: () => Promise<void>) {
  const exits: number[] = [];
  const lines: string[] = [];
  const timers: { run: () => void; ms: number }[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line).msg) });
  const options: ShutdownOptions = {
    logger,
    drain: () => {},
    drainMs: 5_000,
    stopListening: () => {},
    closeJobs,
    openPolls: () => 0,
    closeRest: async () => {},
    exit: (code) => void exits.push(code),
    deadlineMs: 7_000,
    sleep: async () => {},
    setTimer: (run, ms) => void timers.push({ run, ms }),
  };
  return { start: createShutdown(options), exits, lines, timers };
}

it("exits with 1 at the deadline when closing the jobs never ends", async () => {
  const { start, exits, lines, timers } = shutdownWith(() => new Promise(() => {}));
  start();
  start();
  await vi.waitFor(() => expect(timers).toHaveLength(1));
  expect(timers[0].ms).toBe(7_000);
  expect(exits).toEqual([]);
  timers[0].run();
  expect(exits).toEqual([1]);
  expect(lines).toContain("shutdown: not done in time, exiting");
  expect(lines.filter((l) => l.startsWith("shutdown: draining"))).toHaveLength(1);
});

it("exits with 0 once everything is closed, before the deadline", async () => {
  const { start, exits, lines } = shutdownWith(async () => {});
  start();
  await vi.waitFor(() => expect(exits).toEqual([0]));
  expect(lines.at(-1)).toBe("shutdown: done");
});
