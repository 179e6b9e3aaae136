/**
 * A subject's job data over real HTTP with the official MCP client: delete_job (listed as
 * destructive, deleting a running job and all its data) and a start beyond a quota, which is an
 * `isError` result that states the limit.
 */
import { DeleteJobOutput, StartBulkOutput, TOOL } from "../../shared/tools.js";
import { PACE_META_KEY, pauseAtPace } from "../dev-pace.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import { createMemoryStore } from "../jobs/stores/memory.js";
import { callTool, startJob, toolError, toolText, useTestClient } from "../../test-kit/servers/test-server.js";

const store = createMemoryStore();
const ctx = useTestClient({
  // one job at a time, so that the second waits while the first runs
  jobs: createJobService({
    store,
    match: matchGifts,
    limits: { maxConcurrentJobs: 1, maxUnfinishedPerSubject: 2 },
    beforeSlice: pauseAtPace,
  }),
  // so that a job can be slowed down and is surely still running when it is deleted
  devPace: true,
});
const START = { occasion: "holiday", budgetPerPerson: 50 };

describe("job data over MCP", () => {
  it("lists delete_job as a destructive tool the model and the widget may call", async () => {
    const { tools } = await ctx.client.listTools();
    const tool = tools.find((t) => t.name === TOOL.deleteJob);
    expect(tool?.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(tool?._meta).toMatchObject({ "openai/widgetAccessible": true });
    expect(tool?._meta?.ui).toBeUndefined();
  });

  it("deletes a job that has not ended, canceling it first, and answers unknown_job after", async () => {
    const slowed = await ctx.client.callTool({
      name: TOOL.startBulk,
      arguments: { ...START, csv: employeeCsv(30_000) },
      _meta: { [PACE_META_KEY]: 20 },
    });
    const big = StartBulkOutput.parse(slowed.structuredContent);
    const queued = await startJob(ctx.client, { ...START, csv: employeeCsv(10) });
    // a third would be beyond the two a subject may have at once
    const third = await callTool(ctx.client, TOOL.startBulk, { ...START, csv: employeeCsv(10) });
    expect(toolError(third)).toMatchObject({
      code: "quota_exceeded",
      message: "You already have 2 analyses waiting or running; the limit is 2 at a time.",
    });
    for (const jobId of [queued.jobId, big.jobId]) {
      const deleted = await callTool(ctx.client, TOOL.deleteJob, { jobId });
      expect(deleted.isError).toBeFalsy();
      expect(DeleteJobOutput.parse(deleted.structuredContent)).toEqual({ jobId, canceled: true });
      expect(toolText(deleted)).toContain(`Deleted job ${jobId}, which was canceled first`);
      expect(await store.getJob(jobId)).toBeUndefined();
      const read = await callTool(ctx.client, TOOL.getJobEvents, { jobId, afterSeq: 0 });
      expect(toolError(read)).toMatchObject({ code: "unknown_job" });
      const again = await callTool(ctx.client, TOOL.deleteJob, { jobId });
      expect(toolError(again)).toMatchObject({ code: "unknown_job" });
    }
    // with both gone there is room again
    await startJob(ctx.client, { ...START, csv: employeeCsv(10) });
  });
});
