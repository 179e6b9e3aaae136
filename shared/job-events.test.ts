import { eventTypeForMethod, JOB_EVENT_TYPES, parseJobEvents } from "../test-kit/job-events.js";
import { JobEventSchema, notificationMethodFor, toNotification } from "./job-events.js";

const base = { eventId: "e1", jobId: "j1", seq: 1, timestamp: "2026-01-01T00:00:00.000Z" };

describe("JobEventSchema", () => {
  it("accepts every event type with its payload", () => {
    const samples = [
      {
        ...base,
        type: "job.created",
        payload: { kind: "bulk", title: "t", stages: [{ id: "parse", label: "Parse" }] },
      },
      { ...base, type: "job.started", payload: {} },
      {
        ...base,
        type: "job.progress",
        payload: { percentage: 12.5, stage: "parse", etaSeconds: 3, processed: 1, total: 8 },
      },
      {
        ...base,
        type: "job.completed",
        payload: { summary: "done", resultResourceId: "gifts://jobs/j1/result", resultCount: 3 },
      },
      { ...base, type: "job.failed", payload: { code: "x", message: "m", retryable: false } },
      { ...base, type: "job.canceled", payload: { reason: "user" } },
    ];
    for (const s of samples) expect(JobEventSchema.parse(s)).toEqual(s);
  });

  it("strips unknown fields at every level", () => {
    const parsed = JobEventSchema.parse({
      ...base,
      extra: 1,
      type: "job.started",
      payload: { summary: "s", junk: true },
    });
    expect(parsed).toEqual({ ...base, type: "job.started", payload: { summary: "s" } });
  });

  it.each([
    ["empty eventId", { ...base, eventId: "" }],
    ["seq 0", { ...base, seq: 0 }],
    ["fractional seq", { ...base, seq: 1.5 }],
    ["bad timestamp", { ...base, timestamp: "yesterday" }],
    ["unknown type", { ...base, type: "job.exploded" }],
  ])("rejects %s", (_name, raw) => {
    expect(JobEventSchema.safeParse({ type: "job.started", payload: {}, ...raw }).success).toBe(false);
  });

  it("rejects progress outside 0–100 and negative ETA", () => {
    const p = (payload: object) => JobEventSchema.safeParse({ ...base, type: "job.progress", payload }).success;
    expect(p({ percentage: 101, stage: "s" })).toBe(false);
    expect(p({ percentage: -1, stage: "s" })).toBe(false);
    expect(p({ percentage: 5, stage: "s", etaSeconds: -2 })).toBe(false);
    expect(p({ percentage: 5, stage: "s" })).toBe(true);
  });

  it("parseJobEvents keeps the valid events and reports the rest", () => {
    const { events, rejected } = parseJobEvents([{ ...base, type: "job.started", payload: {} }, { nope: 1 }]);
    expect(events).toHaveLength(1);
    expect(rejected.map((r) => r.index)).toEqual([1]);
    expect(parseJobEvents("not an array").rejected).toHaveLength(1);
  });
});

describe("notification methods", () => {
  it("maps every type to notifications/job/* and back", () => {
    for (const t of JOB_EVENT_TYPES) {
      const m = notificationMethodFor(t);
      expect(m).toBe(`notifications/job/${t.slice(4)}`);
      expect(eventTypeForMethod(m)).toBe(t);
    }
    expect(eventTypeForMethod("notifications/progress")).toBeUndefined();
    expect(eventTypeForMethod("notifications/job/exploded")).toBeUndefined();
  });

  it("carries the event itself as params", () => {
    const e = JobEventSchema.parse({ ...base, type: "job.started", payload: {} });
    expect(toNotification(e)).toEqual({ method: "notifications/job/started", params: e });
  });
});
