// @vitest-environment jsdom
/**
 * The job's clocks as a person watches them, on fake timers: waiting time while pending, running
 * time from the start while running, the running time fixed once finished; no value ever smaller
 * than one shown before, with the local clock ahead of the server, behind it, and with the end
 * delivered late. The times come from the events' timestamps. Then the ETA: shown only while
 * it means something, counted down through a stage change rather than gone.
 */
import { act } from "react";
import type { JobEvent, JobEventOf, JobEventType } from "../../../shared/job-events.js";
import { jobEvent, type PayloadOf } from "../../../test-kit/job-events.js";
import { mountJobPanel, type MountedPanel } from "../../../test-kit/widget/mount-job-panel.js";

/** Server time 0 of every test; event times are written as seconds after it. */
const T = Date.parse("2026-03-01T09:00:00.000Z");
let panel: MountedPanel;
let store: MountedPanel["store"];

function mount(locale = "en-US") {
  panel = mountJobPanel({ locale });
  store = panel.store;
}
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  panel.dispose();
  vi.useRealTimers();
});

/** Event `seq` of job-1, stamped `at` seconds after T by the server. */
function event<K extends JobEventType>(seq: number, at: number, type: K, payload: Partial<PayloadOf<K>> = {}) {
  return {
    ...jobEvent("job-1", seq, type, payload),
    timestamp: new Date(T + at * 1000).toISOString(),
  } as JobEventOf<K>;
}
const created = event(1, 0, "job.created");
const started = event(2, 3.2, "job.started");
const progress = (seq: number, at: number, percentage: number) =>
  event(seq, at, "job.progress", { stage: "match", percentage, processed: percentage, total: 100 });
const completed = event(5, 10.5, "job.completed");

/** Sets the local clock to `at` seconds after T (it only moves forward), firing the ticks on the way. */
// act with a synchronous callback has done all its work when it returns; its thenable is for async ones
const localAt = (at: number) => void act(() => vi.advanceTimersByTime(T + at * 1000 - Date.now()));
const dispatch = (...events: JobEvent[]) => void act(() => store.getState().dispatch("job-1", events));
const UNIT_SECONDS: Record<string, number> = { hr: 3600, min: 60, sec: 1, 시간: 3600, 분: 60, 초: 1 };
/** The clock's words and seconds, e.g. ["Running", 7] from "Running 7 sec"; "<1 sec" is 0. */
function clock(): [string, number] {
  const text = document.querySelector(".gg-timing")?.textContent ?? "";
  const m = /^(Waiting|Running|Ran for|Waited|대기|실행|총 실행 시간|총 대기 시간) ([^·]+)/.exec(text);
  if (m === null) throw new Error(`no clock in "${text}"`);
  const duration = m[2].trim();
  const parts = [...duration.matchAll(/(\d+)\s*(hr|min|sec|시간|분|초)/g)];
  if (duration.startsWith("<") || parts.length === 0) {
    if (!/^<1\s*(sec|초)$/.test(duration)) throw new Error(`no duration in "${text}"`);
    return [m[1], 0];
  }
  return [m[1], parts.reduce((sum, [, n, unit]) => sum + Number(n) * UNIT_SECONDS[unit], 0)];
}

/**
 * Plays the job: created, started, two progress events and completed, each arriving `skew`
 * seconds after the server stamped it (plus `lateEnd` for the completion), the local clock read
 * every quarter second in between. Returns every clock shown.
 */
function play(skew: number, lateEnd = 0): [string, number][] {
  const seen: [string, number][] = [];
  const arrivals: [number, JobEvent][] = [
    [0 + skew, created],
    [3.2 + skew, started],
    [5 + skew, progress(3, 5, 40)],
    [8 + skew, progress(4, 8, 80)],
    [10.5 + skew + lateEnd, completed],
  ];
  vi.setSystemTime(T + skew * 1000);
  mount();
  for (const [at, e] of arrivals) {
    while (Date.now() + 250 < T + at * 1000) {
      localAt((Date.now() - T) / 1000 + 0.25);
      if (document.querySelector(".gg-timing")) seen.push(clock());
    }
    localAt(at);
    dispatch(e);
    seen.push(clock());
  }
  localAt((Date.now() - T) / 1000 + 5);
  seen.push(clock());
  return seen;
}

/** No clock shows less than it showed before; waiting goes on as waited, running as ran. */
function expectNeverBackwards(seen: [string, number][]) {
  const family = (words: string) => (words.startsWith("Wait") ? "waiting" : "running");
  const last = new Map<string, number>();
  for (const [words, seconds] of seen) {
    expect(seconds).toBeGreaterThanOrEqual(last.get(family(words)) ?? 0);
    last.set(family(words), seconds);
  }
}

describe("JobTiming", () => {
  it("shows waiting time while pending, running time from the start, then the fixed running time", () => {
    const seen = play(0.2);
    expectNeverBackwards(seen);
    const words = seen.map(([w]) => w).filter((w, i, all) => w !== all[i - 1]);
    expect(words).toEqual(["Waiting", "Running", "Ran for"]);
    expect(seen.filter(([w]) => w === "Waiting").at(-1)).toEqual(["Waiting", 3]);
    expect(seen.find(([w]) => w === "Running")).toEqual(["Running", 0]);
    // from job.started (3.2 s) to job.completed (10.5 s), and it stays there
    expect(seen.slice(-2)).toEqual([
      ["Ran for", 7],
      ["Ran for", 7],
    ]);
  });

  it("never runs past the final time with a local clock 2.5 s ahead of the server", () => {
    const seen = play(2.7);
    expectNeverBackwards(seen);
    // the local clock alone would have shown 9 seconds by the end (12.7 s local − 3.2 s)
    const running = seen.filter(([w]) => w === "Running").map(([, s]) => s);
    expect(Math.max(...running)).toBeGreaterThanOrEqual(6);
    expect(Math.max(...running)).toBeLessThanOrEqual(7);
    expect(seen.at(-1)).toEqual(["Ran for", 7]);
  });

  it("counts from the events' times with a local clock 5 s behind the server", () => {
    const seen = play(-4.9);
    expectNeverBackwards(seen);
    expect(seen.filter(([w]) => w === "Waiting").at(-1)).toEqual(["Waiting", 3]);
    expect(seen.at(-1)).toEqual(["Ran for", 7]);
  });

  it("keeps the time it showed when the end arrives late, and shows the events' own time when mounted afresh", () => {
    const seen = play(0.2, 3);
    expectNeverBackwards(seen);
    // the clock ticked on for 3 s past the end before the completion arrived
    expect(seen.filter(([w]) => w === "Running").at(-1)).toEqual(["Running", 9]);
    expect(seen.at(-1)).toEqual(["Ran for", 9]);

    panel.dispose();
    mount();
    dispatch(created, started, progress(3, 5, 40), progress(4, 8, 80), completed);
    expect(clock()).toEqual(["Ran for", 7]);
  });

  it("tells a job canceled before it started by its waiting time, which goes on from where it was", () => {
    vi.setSystemTime(T + 100);
    mount();
    dispatch(created);
    localAt(4.1);
    expect(clock()).toEqual(["Waiting", 4]);
    localAt(4.6);
    dispatch(event(2, 4.5, "job.canceled"));
    expect(clock()).toEqual(["Waited", 4]);
    localAt(30);
    expect(clock()).toEqual(["Waited", 4]);
  });

  it("labels the clocks in Korean", () => {
    vi.setSystemTime(T + 100);
    mount("ko-KR");
    dispatch(created);
    localAt(2.1);
    expect(clock()).toEqual(["대기", 2]);
    localAt(3.3);
    dispatch(started);
    localAt(5.3);
    expect(clock()).toEqual(["실행", 2]);
    dispatch(completed);
    expect(clock()).toEqual(["총 실행 시간", 7]);
  });
});

describe("the ETA", () => {
  const at = (seq: number, stage: string, percentage: number, etaSeconds?: number) =>
    event(seq, seq, "job.progress", { stage, percentage, ...(etaSeconds === undefined ? {} : { etaSeconds }) });
  const eta = () => /(About|약) [^·]+ (left|남음)/.exec(document.querySelector(".gg-timing")?.textContent ?? "")?.[0];

  beforeEach(() => vi.setSystemTime(T));

  it("is hidden before the first percent, then shown from the server's value", () => {
    mount();
    dispatch(event(1, 1, "job.created"), event(2, 2, "job.started"), at(3, "parse", 0, 30));
    dispatch(at(4, "parse", 0.5, 30));
    expect(eta()).toBeUndefined();
    dispatch(at(5, "parse", 2, 40));
    expect(eta()).toBe("About 40 sec left");
  });

  it("counts down through a stage change (whose first event carries none) and as time goes by", () => {
    mount();
    dispatch(event(1, 1, "job.created"), event(2, 2, "job.started"), at(3, "parse", 5, 60), at(4, "parse", 10, 50));
    expect(eta()).toBe("About 50 sec left");
    // the server's clock is at 5 s: a second has gone since the estimate of 50 s
    dispatch(at(5, "match", 40));
    expect(eta()).toBe("About 49 sec left");
    dispatch(at(6, "match", 45, 18));
    expect(eta()).toBe("About 18 sec left");
    localAt(3);
    expect(eta()).toBe("About 15 sec left");
    // an older estimate arriving late does not replace the newer one
    dispatch(at(7, "match", 50), event(4, 4, "job.progress", { stage: "parse", percentage: 10, etaSeconds: 90 }));
    expect(eta()).toBe("About 15 sec left");
  });

  it("never says less than a second left while the job runs, and is gone once it has ended", () => {
    mount("ko-KR");
    dispatch(event(1, 1, "job.created"), event(2, 2, "job.started"), at(3, "match", 90, 9), at(4, "match", 95, 4));
    expect(eta()).toBe("약 4초 남음");
    dispatch(at(5, "match", 99, 0.4));
    expect(eta()).toBeUndefined();
    dispatch(at(6, "match", 99, 3));
    expect(eta()).toBe("약 3초 남음");
    dispatch(event(7, 7, "job.completed"));
    expect(eta()).toBeUndefined();
  });

  it.each(["job.failed", "job.canceled"] as const)("is gone after %s", (type) => {
    mount();
    dispatch(event(1, 1, "job.created"), at(2, "match", 40, 60), at(3, "match", 50, 50));
    expect(eta()).toBe("About 50 sec left");
    dispatch(event(4, 4, type));
    expect(eta()).toBeUndefined();
  });
});
