/**
 * Slice turns: slices of different jobs never share a turn of the event loop, turns go round
 * the jobs in order, and an aborted wait leaves the queue. Turns are counted by a setImmediate
 * ticker started before anything else, so each turn's check phase runs it first.
 */
import type { MatchGifts } from "../../gifts/matcher.js";
import { createJobService } from "../job-service.js";
import { createMemoryStore } from "../stores/memory.js";
import { ALICE, settle, testMatch } from "../../../test-kit/jobs/service-reads.js";
import { SliceTurns } from "./slice-turns.js";

/** A counter that goes up once per turn of the event loop, until stopped. */
function countTurns() {
  const counter = { turn: 0, stop: () => void (running = false) };
  let running = true;
  const tick = () => {
    counter.turn++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return counter;
}

/** Two loops taking `slices` turns each from `next`; the turn each slice ran in, by loop. */
async function twoLoops(next: () => Promise<void>, slices: number) {
  const turns = countTurns();
  const ran: Record<"a" | "b", number[]> = { a: [], b: [] };
  const loop = async (name: "a" | "b") => {
    for (let i = 0; i < slices; i++) {
      await next();
      ran[name].push(turns.turn);
    }
  };
  await Promise.all([loop("a"), loop("b")]);
  turns.stop();
  return ran;
}

describe("SliceTurns", () => {
  it("runs at most one slice per turn, taking turns round-robin", async () => {
    const slices = new SliceTurns();
    const ran = await twoLoops(() => slices.next(), 20);
    const all = [...ran.a, ...ran.b];
    expect(new Set(all).size).toBe(all.length);
    // a and b alternate: between two slices of one loop comes exactly one of the other
    const order = all.sort((x, y) => x - y).map((t) => (ran.a.includes(t) ? "a" : "b"));
    expect(order.join("")).toBe("ab".repeat(20));
  });

  it("is what keeps slices apart: without them, two loops share turns", async () => {
    const ran = await twoLoops(() => new Promise((resolve) => setImmediate(resolve)), 20);
    expect(ran.a.filter((t) => ran.b.includes(t)).length).toBeGreaterThan(10);
  });

  it("drops a waiting slice whose signal aborts, and serves the others", async () => {
    const turns = countTurns();
    const slices = new SliceTurns();
    const controller = new AbortController();
    const dropped = slices.next(controller.signal);
    const served = slices.next();
    controller.abort(new Error("canceled"));
    await expect(dropped).rejects.toThrow("canceled");
    await served;
    // the first turn went to the slice still waiting, none to the dropped one
    expect(turns.turn).toBe(1);
    turns.stop();
    await expect(slices.next(controller.signal)).rejects.toThrow("canceled");
  });
});

describe("a job's share of the turns", () => {
  afterEach(() => void vi.useRealTimers());

  it("times the job's slices, from each turn it gets to its next wait", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    const share = new SliceTurns().join();
    await share.next();
    vi.advanceTimersByTime(10); // a slice of 10 ms
    expect(share.busy()).toBe(10);
    await share.next();
    vi.advanceTimersByTime(4);
    await share.next();
    expect(share.busy()).toBe(14);
  });

  it("gives the time until the end under processor sharing: the job's own work, and the others' up to as much", () => {
    const turns = new SliceTurns();
    const [a, b, c] = [turns.join(), turns.join(), turns.join()];
    // before any slice ran, an ETA is the work itself
    expect(a.eta(100)).toBe(100);
    expect(b.eta(40)).toBe(80); // b's 40, and 40 of a's: they run side by side until b ends
    expect(c.eta(300)).toBe(440); // all of a's and b's, then c alone
    expect(a.eta(100)).toBe(240); // b's 40, and 100 of c's
    b.leave();
    c.leave();
    expect(a.eta(100)).toBe(100);
  });

  it("goes at the pace slices have had since the job began, whoever ran them", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    const turns = new SliceTurns();
    const [a, b] = [turns.join(), turns.join()];
    await b.next();
    vi.advanceTimersByTime(10); // b's slice
    const bWaits = b.next();
    b.leave();
    await a.next();
    vi.advanceTimersByTime(10); // a's slice
    const aWaits = a.next();
    vi.advanceTimersByTime(20); // the process busy with other things before a's next turn
    await Promise.all([aWaits, bWaits]);
    // 40 ms gone by since a began, 20 of them slices: a's 30 ms of work take 60
    expect(a.eta(30)).toBe(60);
  });

  it("does not count the wait before a turn as the job's slice", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    const share = new SliceTurns().join();
    await share.next();
    vi.advanceTimersByTime(5);
    await share.next(undefined, async () => void vi.advanceTimersByTime(100)); // a pause of 100 ms first
    expect(share.busy()).toBe(5);
  });
});

describe("jobs on one service", () => {
  it("never run slices of two jobs in the same turn", async () => {
    const turns = countTurns();
    // every person has a budget of their own, so the matcher runs for each, inside a slice
    const seen = new Map<number, Set<string>>();
    const match: MatchGifts = (request) => {
      let jobs = seen.get(turns.turn);
      if (!jobs) seen.set(turns.turn, (jobs = new Set()));
      jobs.add(request.occasion);
      return testMatch(request);
    };
    const service = createJobService({ store: createMemoryStore(), match, limits: { maxConcurrentJobs: 2 } });
    try {
      const employees = Array.from({ length: 20_000 }, (_, i) => ({
        name: `P${i}`,
        interests: ["coffee"],
        budget: 10 + i / 100,
      }));
      const ids = await Promise.all(
        ["a", "b"].map(async (occasion) => {
          const started = await service.start({ occasion, budgetPerPerson: 20, employees }, ALICE);
          if (!started.ok) throw new Error(started.error.message);
          return started.value.jobId;
        }),
      );
      for (const id of ids) expect((await settle(service, id)).status).toBe("completed");
    } finally {
      turns.stop();
      await service.close();
    }
    const byTurn = [...seen.entries()].sort(([x], [y]) => x - y);
    expect(byTurn.filter(([, jobs]) => jobs.size > 1)).toEqual([]);
    // and they did run side by side, taking turns back and forth
    const switches = byTurn.filter(([, jobs], i) => i > 0 && [...jobs][0] !== [...byTurn[i - 1][1]][0]).length;
    expect(switches).toBeGreaterThanOrEqual(3);
  });
});
