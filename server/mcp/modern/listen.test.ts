/**
 * The listen streams' bound: an instance holds at most `maxStreams` at once and refuses one more
 * with a JSON-RPC error, until one ends.
 */
import { pauseAtPace } from "../../dev-pace.js";
import { matchGifts } from "../../gifts/matcher.js";
import { createJobService } from "../../jobs/job-service.js";
import { createMemoryStore } from "../../jobs/stores/memory.js";
import { createListen } from "./listen.js";

const caller = { subject: "anonymous" };
const csv = "name,interests\nAna,tea\n";

it("refuses a stream past the limit, and takes one again once another has ended", async () => {
  const jobs = createJobService({ store: createMemoryStore(), match: matchGifts, beforeSlice: pauseAtPace });
  const listen = createListen({ jobs, keepAliveMs: 60_000, onError: () => {}, maxStreams: 1 });
  const started = await jobs.start({ csv, occasion: "thanks", budgetPerPerson: 30 }, caller, {
    runOptions: { paceMs: 1_000 },
  });
  if (!started.ok) throw new Error(started.error.message);
  const request = (id: number) => ({
    id,
    params: { notifications: { resourceSubscriptions: [`gifts://jobs/${started.value.jobId}/result`] } },
  });
  const first = new AbortController();
  const open = await listen.serve(request(1), caller, first.signal);
  expect(open.headers.get("content-type")).toMatch(/^text\/event-stream/);
  expect(listen.openCount).toBe(1);

  const refused = await listen.serve(request(2), caller, new AbortController().signal);
  expect(await refused.json()).toMatchObject({
    id: 2,
    error: { code: -32603, message: expect.stringContaining("limit") },
  });

  first.abort();
  expect(listen.openCount).toBe(0);
  const again = await listen.serve(request(3), caller, new AbortController().signal);
  expect(again.headers.get("content-type")).toMatch(/^text\/event-stream/);
  listen.close();
  await jobs.close();
});
