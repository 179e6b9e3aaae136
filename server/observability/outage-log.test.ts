/**
 * The outage log on a hand-driven clock and timer: one line at the first loss (which part, why),
 * nothing more while other parts follow or the same part fails again, a reminder each minute that
 * names every part still down with its latest why, and one line once all are back; then a new
 * outage is told again. Every line is one line. Redis connections tell it through their listener.
 */
import { describe, expect, it } from "vitest";
import { outageListener } from "../redis/connection.js";
import { createOutageLog } from "./outage-log.js";

function setup() {
  const lines: string[] = [];
  let now = 0;
  let tick: (() => void) | undefined;
  const log = createOutageLog({
    dependency: "Redis at 127.0.0.1:6379",
    print: (line) => void lines.push(line),
    now: () => now,
    every: (ms, fn) => {
      expect(ms).toBe(60_000);
      tick = fn;
      return () => void (tick = undefined);
    },
  });
  /** Moves the clock by `ms`, firing the reminder timer once if it is running. */
  const pass = (ms: number) => {
    now += ms;
    tick?.();
  };
  return { lines, log, pass, ticking: () => tick !== undefined };
}

const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:6379"), { code: "ECONNREFUSED" });

describe("an outage log", () => {
  it("tells a loss once, reminds a minute at a time with the parts still down, and tells the return once", () => {
    const { lines, log, pass, ticking } = setup();
    const store = outageListener(log.part("the job store and queue"));
    const worker = outageListener(log.part("the job worker"));
    store(false, undefined);
    worker(false, refused);
    expect(lines).toEqual([
      "Redis at 127.0.0.1:6379 is unreachable for the job store and queue (the connection closed); retrying, and calls that need it fail fast.",
    ]);
    pass(60_000);
    expect(lines[1]).toBe(
      "Redis at 127.0.0.1:6379 is still unreachable after 60 s for the job store and queue, the job worker " +
        "(the connection closed; connect ECONNREFUSED 127.0.0.1:6379); retrying.",
    );
    store(true);
    expect(lines).toHaveLength(2); // the worker is still down
    pass(120_000);
    expect(lines[2]).toMatch(/still unreachable after 3 min for the job worker \(connect ECONNREFUSED/);
    worker(true);
    expect(lines[3]).toBe("Redis at 127.0.0.1:6379 is reachable again, after 3 min.");
    expect(ticking()).toBe(false);
    pass(60_000);
    expect(lines).toHaveLength(4);

    // a later outage is a new one
    worker(false, new AggregateError([refused]));
    expect(lines[4]).toMatch(/is unreachable for the job worker \(connect ECONNREFUSED 127\.0\.0\.1:6379\)/);
  });

  it("says nothing more when a part down fails again, and reminds with its latest why", () => {
    const { lines, log, pass } = setup();
    const checks = log.part("token checks");
    checks.lost("its metadata: no answer within 2 s");
    for (let s = 1; s < 60; s++) checks.lost("its metadata: no answer within 2 s");
    expect(lines).toHaveLength(1);
    checks.lost("its keys: HTTP 500");
    pass(60_000);
    expect(lines[1]).toBe(
      "Redis at 127.0.0.1:6379 is still unreachable after 60 s for token checks (its keys: HTTP 500); retrying.",
    );
    checks.back();
    checks.back();
    expect(lines.slice(2)).toEqual(["Redis at 127.0.0.1:6379 is reachable again, after 60 s."]);
  });

  it("keeps each line on one line, whatever the reason holds", () => {
    const { lines, log, pass } = setup();
    log.part("token checks").lost("fetch failed\n    at node:internal/deps/undici");
    pass(60_000);
    expect(lines).toEqual([
      "Redis at 127.0.0.1:6379 is unreachable for token checks (fetch failed at node:internal/deps/undici); retrying, and calls that need it fail fast.",
      "Redis at 127.0.0.1:6379 is still unreachable after 60 s for token checks (fetch failed at node:internal/deps/undici); retrying.",
    ]);
  });

  it("says that a stalled Redis did not answer, rather than how ioredis words it", () => {
    const { lines, log } = setup();
    outageListener(log.part("the session records"))(false, new Error("Command timed out"));
    expect(lines[0]).toMatch(/unreachable for the session records \(no answer within \d+ ms\)/);
  });

  it("says nothing for a part that comes back without having been lost", () => {
    const { lines, log } = setup();
    log.part("the session records").back();
    expect(lines).toEqual([]);
  });
});
