/**
 * Following a job's result: the people composed so far while it runs, then the finished result
 * read from the start, each person once, the same list as a widget that only saw the end.
 */
import type * as z from "zod/mini";
import type { GetJobResultResult, PersonResult } from "../../shared/tools.js";
import { INITIAL_GLOBALS, type Host } from "./host.js";
import { createResultStore, followResult, loadNextPage } from "./result-store.js";
import { readToolReply } from "./tool-reply.js";

const person = (i: number): PersonResult => ({
  row: i + 2,
  name: `Person ${i}`,
  department: null,
  interests: [],
  budget: 40,
  gifts: [],
});

/** A host whose get_job_result answers from a job that has composed `composed` of `total` people. */
function resultHost(total: number) {
  const state = { composed: 0, done: false, calls: [] as { offset: number; limit: number }[] };
  const host: Host = {
    getGlobals: () => INITIAL_GLOBALS,
    subscribe: () => () => {},
    fileDelivery: () => "none",
    deliverFile: async () => false,
    async callTool<T>(_: string, args: Record<string, unknown>, schema: z.ZodMiniType<T>) {
      const offset = Number(args.offset);
      const limit = Number(args.limit);
      state.calls.push({ offset, limit });
      const available = state.done ? total : state.composed;
      const people = Array.from({ length: Math.max(0, Math.min(limit, available - offset)) }, (_, k) =>
        person(offset + k),
      );
      const end = offset + people.length;
      const page: GetJobResultResult = {
        jobId: "job-1",
        summary: state.done ? "All done." : "",
        total: available,
        offset,
        nextOffset: end < available ? end : null,
        people,
        skipped: state.done && offset === 0 ? [{ row: 1_000, reason: "it has no name" }] : [],
        resultUri: "gifts://jobs/job-1/result",
        partial: !state.done,
      };
      return readToolReply({ structuredContent: page, content: [] }, schema);
    },
    setWidgetState: async () => {},
    requestDisplayMode: async () => {},
    conversation: () => ({ modelContext: false, followUp: false }),
    updateModelContext: async () => false,
    sendFollowUp: async () => false,
    onTeardown: () => {},
    dispose: () => {},
  };
  return { host, state };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("followResult", () => {
  it("shows the first people as they are composed, then the finished result, nobody twice", async () => {
    const { host, state } = resultHost(100);
    const store = createResultStore();
    const people = () => store.getState().pages["job-1"]?.people.map((p) => p.row) ?? [];

    followResult(host, store, "job-1", true, 0);
    await settled();
    expect(state.calls).toEqual([]); // nothing composed yet: nothing asked

    state.composed = 7;
    followResult(host, store, "job-1", true, 7);
    await settled();
    expect(people()).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(store.getState().pages["job-1"]).toMatchObject({ partial: true, total: 7 });

    state.composed = 50;
    followResult(host, store, "job-1", true, 50);
    await settled();
    expect(people()).toHaveLength(27); // one more page of 20 after the 7; then more only on "Show more"
    followResult(host, store, "job-1", true, 60);
    await settled();
    expect(people()).toHaveLength(27);

    state.done = true;
    followResult(host, store, "job-1", false, 0);
    await settled();
    expect(store.getState().pages["job-1"]).toMatchObject({ partial: false, summary: "All done.", total: 100 });
    expect(store.getState().pages["job-1"].skipped).toEqual([{ row: 1_000, reason: "it has no name" }]);
    while (store.getState().pages["job-1"].nextOffset !== null) await loadNextPage(host, store, "job-1");

    // the same list a widget gets that only ever saw the finished job
    const fresh = createResultStore();
    followResult(host, fresh, "job-1", false, 0);
    await settled();
    while (fresh.getState().pages["job-1"].nextOffset !== null) await loadNextPage(host, fresh, "job-1");
    expect(people()).toEqual(fresh.getState().pages["job-1"].people.map((p) => p.row));
    expect(new Set(people()).size).toBe(100);
  });
});
