/**
 * The jobs' feed of a session's stream over a memory store and fake session records: a job the
 * session starts is followed from its first event and written once per event, in order, as the
 * session's messages; another session's job is not.
 */
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import { createMemoryStore } from "../jobs/stores/memory.js";
import type { SessionRecords, StreamItem } from "./http/session-records.js";
import type { Every } from "./http/session-streams.js";
import { createJobSessionStreams } from "./job-streams.js";

const csv = "name,interests\nAna,tea\nBo,books\n";

function fakeRecords() {
  const written: StreamItem[] = [];
  const followed = new Map<string, Map<string, number>>();
  const records = {
    claim: async () => 1,
    last: async () => "0",
    read: async () => [],
    write: async (_id: string, items: StreamItem[]) => {
      written.push(...items);
      return [];
    },
    touch: async () => true,
    follow: vi.fn(async (id: string, jobId: string) => {
      followed.set(id, new Map([...(followed.get(id) ?? []), [jobId, 0]]));
    }),
    followed: async (id: string) => new Map(followed.get(id)),
    onSignal: () => () => {},
  };
  return { records: records as unknown as SessionRecords, written, follow: records.follow };
}

it("follows the session's own jobs from their first event, each event written once and in order", async () => {
  const store = createMemoryStore();
  const jobs = createJobService({ store, match: matchGifts });
  const { records, written, follow } = fakeRecords();
  const ticks: (() => void)[] = [];
  const every: Every = (ms, run) => {
    if (ms === 100) ticks.push(run);
    return () => {};
  };
  const streams = createJobSessionStreams({
    records,
    store,
    jobs,
    every,
    tickMs: 100,
    onError: (e) => {
      throw e;
    },
  });
  streams.open("s1", "alice", undefined);

  const args = { csv, occasion: "thanks", budgetPerPerson: 30 };
  const mine = await jobs.start(args, { subject: "alice", sessionId: "s1" });
  const theirs = await jobs.start(args, { subject: "bob", sessionId: "s2" });
  if (!mine.ok || !theirs.ok) throw new Error("the jobs did not start");
  const jobId = mine.value.jobId;
  expect(follow).toHaveBeenCalledWith("s1", jobId);
  await jobs.waitFor({ jobId, timeoutMs: 30_000 }, { subject: "alice" }, () => {});
  // with no watch in the memory store, the tick reads what the wake-ups did not
  await vi.waitFor(() => {
    ticks.forEach((tick) => tick());
    expect(written.at(-1)?.messages[0]?.message.method).toBe("notifications/job/completed");
  });

  expect(new Set(written.map((item) => item.jobId))).toEqual(new Set([jobId]));
  expect(written.map((item) => item.seq)).toEqual(written.map((_, i) => i + 1));
  expect(written[0].messages).toContainEqual({
    message: expect.objectContaining({ method: "notifications/job/created" }),
    when: { always: true },
  });
  streams.close();
  await jobs.close();
});
