/**
 * Session records on the real Redis: a stream written by several instances holds each job event's
 * messages once, in the order of the job's log, with the session's own conditions (subscription,
 * log level) applied where it is written; a write returns the others' writes too; an ended session
 * takes nothing and says so.
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { watchConnection } from "../../redis/connection.js";
import { deleteKeysUnder, keysUnder, redisUnreachable, redisUrl } from "../../../test-kit/redis.js";
import type { Condition } from "../notifications.js";
import { createSessionRecords, type SessionRecords, type StreamItem } from "./session-records.js";

const unreachable = await redisUnreachable("the session record tests");

const item = (jobId: string, seq: number, ...when: Condition[]): StreamItem => ({
  jobId,
  seq,
  messages: (when.length > 0 ? when : [{ always: true } as const]).map((w, i) => ({
    message: { method: "notifications/job/progress", params: { jobId, seq, i } },
    when: w,
  })),
});
const seqsOf = (entries: { json: string }[]) => entries.map((e) => JSON.parse(e.json).params.seq);

describe.runIf(unreachable === undefined)("session records in Redis", () => {
  const prefix = `giftgenius-test:${randomUUID()}:`;
  const admin = unreachable === undefined ? new Redis(redisUrl) : undefined;
  let one: SessionRecords, two: SessionRecords;
  beforeAll(() => {
    // two instances' records on their own connections
    one = createSessionRecords(watchConnection(new Redis(redisUrl)), prefix, 60_000);
    two = createSessionRecords(watchConnection(new Redis(redisUrl)), prefix, 60_000);
  });
  afterAll(async () => {
    await Promise.all([one.close(), two.close()]);
    await deleteKeysUnder(admin!, prefix);
    await admin!.quit();
  });

  it("keeps a session for any instance to load, numbers its streams, and ends it everywhere", async () => {
    await one.save("s1", { subject: "alice", init: { protocolVersion: "2025-06-18" } });
    expect(await two.load("s1", "alice")).toEqual({ subject: "alice", init: { protocolVersion: "2025-06-18" } });
    expect(await two.load("s1", "bob")).toBeUndefined();
    const heard: unknown[] = [];
    const stop = one.onSignal((signal) => heard.push(signal));
    await new Promise((r) => setTimeout(r, 100)); // the subscription is made
    expect([await one.claim("s1"), await two.claim("s1")]).toEqual([1, 2]);
    await two.end("s1");
    expect(await one.load("s1", "alice")).toBeUndefined();
    expect(await one.touch("s1")).toBe(false);
    await vi.waitFor(() =>
      expect(heard).toEqual([
        { kind: "moved", sessionId: "s1", stream: 1 },
        { kind: "moved", sessionId: "s1", stream: 2 },
        { kind: "ended", sessionId: "s1" },
      ]),
    );
    stop();
    expect(await keysUnder(admin!, `${prefix}session:s1`)).toEqual([]);
  });

  it("writes each job event once, whichever instance offers it, and returns the others' writes", async () => {
    await one.save("s2", { subject: "alice", init: {} });
    await one.follow("s2", "j1");
    expect(await two.followed("s2")).toEqual(new Map([["j1", 0]]));
    const first = await one.write("s2", [item("j1", 1), item("j1", 2)], "0-0");
    expect(seqsOf(first!)).toEqual([1, 2]);
    // the other instance offers 1..3 from the log: only 3 is new, and it hears 1 and 2 as written
    const second = await two.write("s2", [item("j1", 1), item("j1", 2), item("j1", 3), item("j2", 1)], "0-0");
    expect(seqsOf(second!)).toEqual([1, 2, 3, 1]);
    expect(second!.slice(0, 2)).toEqual(first);
    expect(seqsOf(await one.read("s2", first![1].id))).toEqual([3, 1]);
    expect(await one.followed("s2")).toEqual(
      new Map([
        ["j1", 3],
        ["j2", 1],
      ]),
    );
    expect(await one.last("s2")).toBe(second![3].id);
  });

  it("writes a message whose condition the session meets: a subscription, a log level", async () => {
    await one.save("s3", { subject: "alice", init: {} });
    const sub = { subscribed: "gifts://jobs/j1/result" };
    const written = async (seq: number, when: Condition) => (await one.write("s3", [item("j1", seq, when)], "0-0"))!;
    expect(await written(1, sub)).toEqual([]);
    expect(await written(2, { level: "info" })).toEqual([]); // no level set: no log lines
    await two.subscribe("s3", sub.subscribed, "j1");
    await two.setLevel("s3", "notice");
    expect(seqsOf(await written(3, sub))).toEqual([3]);
    expect(seqsOf(await written(4, { level: "info" }))).toEqual([3]); // below the level
    expect(seqsOf(await written(5, { level: "error" }))).toEqual([3, 5]);
    await two.unsubscribe("s3", sub.subscribed);
    expect(seqsOf(await written(6, sub))).toEqual([3, 5]);
  });

  it("ends a session only when no instance used it for the idle time given", async () => {
    await one.save("s4", { subject: "alice", init: {} });
    expect(await two.endIfIdle("s4", 1_000)).toBe(false);
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await one.touch("s4")).toBe(true); // used again, elsewhere
    expect(await two.endIfIdle("s4", 1_000)).toBe(false);
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await two.endIfIdle("s4", 1_000)).toBe(true);
    expect(await one.load("s4", "alice")).toBeUndefined();
    expect(await two.endIfIdle("s4", 1_000)).toBe(false);
  });

  it("takes nothing for a session that ended or never was", async () => {
    expect(await one.write("nobody", [item("j1", 1)], "0-0")).toBeUndefined();
    expect(await keysUnder(admin!, `${prefix}session:nobody`)).toEqual([]);
  });
});
