/**
 * Bulk analyses end to end over real HTTP with the official MCP client: an awkward CSV to its
 * result (pages and resource), the event contract of a whole history, a 10,000-row job followed
 * by long polls, and wait_for_job's progress against the history it summarizes.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import {
  GetJobEventsOutput,
  GetJobResultOutput,
  JobResultPageSchema,
  TOOL,
  WaitForJobOutput,
  type PersonResult,
} from "../../shared/tools.js";
import type { SkippedRow } from "../../shared/files.js";
import type { JobEvent } from "../../shared/job-events.js";
import { StartBulkOutput } from "../../shared/tools.js";
import { foldJobEvents, toJobView } from "../../shared/job-reducer.js";
import { CATALOG } from "../gifts/catalog.js";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import { createMemoryStore } from "../jobs/stores/memory.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { expectJobHistory } from "../../test-kit/job-history.js";
import {
  callTool,
  connectClient,
  readJobHistory,
  startJob,
  startTestServer,
  toolText,
  type TestServer,
} from "../../test-kit/servers/test-server.js";

let server: TestServer;
let client: Client;

beforeAll(async () => {
  // one job at a time, so that a job can be held back behind another
  server = await startTestServer({
    jobs: createJobService({ store: createMemoryStore(), match: matchGifts, limits: { maxConcurrentJobs: 1 } }),
  });
  client = await connectClient(server.mcpUrl);
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const waitForJob = async (jobId: string) =>
  WaitForJobOutput.parse((await callTool(client, TOOL.waitForJob, { jobId })).structuredContent);

/** Every result page from offset 0, `limit` people at a time. */
async function readPages(jobId: string, limit: number) {
  const pages = [];
  for (let offset: number | null = 0; offset !== null;) {
    const result = await callTool(client, TOOL.getJobResult, { jobId, offset, limit });
    expect(result.isError).toBeFalsy();
    const page = GetJobResultOutput.parse(result.structuredContent);
    expect(page.offset).toBe(offset);
    pages.push(page);
    offset = page.nextOffset;
  }
  return pages;
}

/** A header with a BOM, odd case and spaces, CRLF line ends, and rows a spreadsheet might export. */
const TRICKY_CSV =
  [
    "\uFEFFName, Department ,INTERESTS,Budget",
    '"Smith, Jane","R&D, Lab","coffee; ""dark"" roast|hiking",45',
    '"Line\r\nBreak",Sales,books | music,',
    "李小龍,工程,tea;yoga,30",
    "Zoë Ærø,Design,art|travel;wine,$80",
    "Bob,Support,music,cheap",
    ",Sales,coffee,20",
    '"Ólafur 🎉 Arnalds",Music,"vinyl;music",25',
  ].join("\r\n") + "\r\n";

describe("a bulk analysis over MCP", () => {
  it("reads an awkward CSV: the good people get gifts within their budget, the bad rows are skipped with row and reason", async () => {
    const { jobId, resultUri } = await startJob(client, { csv: TRICKY_CSV, occasion: "holiday", budgetPerPerson: 40 });
    const done = await waitForJob(jobId);
    expect(done).toMatchObject({
      status: "completed",
      done: true,
      view: { resultCount: 5, resultResourceId: resultUri },
    });

    const pages = await readPages(jobId, 2);
    expect(pages.map((p) => p.nextOffset)).toEqual([2, 4, null]);
    const people: PersonResult[] = pages.flatMap((p) => p.people);
    const skipped: SkippedRow[] = pages.flatMap((p) => p.skipped);
    expect(people.map((p) => [p.row, p.name, p.department, p.interests, p.budget])).toEqual([
      [2, "Smith, Jane", "R&D, Lab", ["coffee", '"dark" roast', "hiking"], 45],
      [3, "Line\r\nBreak", "Sales", ["books", "music"], 40],
      [4, "李小龍", "工程", ["tea", "yoga"], 30],
      [5, "Zoë Ærø", "Design", ["art", "travel", "wine"], 80],
      [8, "Ólafur 🎉 Arnalds", "Music", ["vinyl", "music"], 25],
    ]);
    // each skipped row keeps the name and department it held, for HR's skipped-rows file
    expect(skipped).toEqual([
      { row: 6, name: "Bob", department: "Support", reason: 'its budget "cheap" is not a positive number' },
      { row: 7, department: "Sales", reason: "it has no name" },
    ]);
    for (const person of people) {
      expect(person.gifts.length).toBeGreaterThan(0);
      for (const gift of person.gifts) {
        expect(gift.price).toBeLessThanOrEqual(person.budget);
        expect(CATALOG.find((item) => item.id === gift.id)?.price).toBe(gift.price);
      }
    }
    expect(pages[0].summary).toContain("2 rows were skipped");

    const { contents } = await client.readResource({ uri: resultUri });
    expect(contents[0]).toMatchObject({ uri: resultUri, mimeType: "application/json" });
    const full = JobResultPageSchema.parse(JSON.parse("text" in contents[0] ? contents[0].text : ""));
    expect(full).toEqual({
      jobId,
      occasion: "holiday",
      budgetPerPerson: 40,
      currency: "USD",
      summary: pages[0].summary,
      total: 5,
      offset: 0,
      people,
      skipped,
      next: null,
    });
  });

  it("keeps the event contract over a whole history, and the reducer folds it into the server's view", async () => {
    const { jobId, stages } = await startJob(client, {
      csv: employeeCsv(3_000),
      occasion: "birthday",
      budgetPerPerson: 35,
    });
    const waited = await waitForJob(jobId);
    const { events, raw, last } = await readJobHistory(client, jobId);
    expect(last).toMatchObject({ status: "completed", done: true, nextSeq: events.length });
    const { terminal } = expectJobHistory(raw, last);
    expect(terminal).toMatchObject({ type: "job.completed", payload: { resultCount: 3_000 } });
    expect(events[0].type === "job.created" && events[0].payload.stages).toEqual(stages);
    expect(waited.view).toEqual(toJobView(foldJobEvents(jobId, events)));
  });

  it("writes the job's words in the user's language: the locale argument, or ChatGPT's openai/locale hint", async () => {
    const byArgument = await startJob(client, {
      csv: employeeCsv(30),
      occasion: "설날",
      budgetPerPerson: 40_000,
      locale: "ko-KR",
    });
    expect(byArgument.stages.map((s) => s.label)).toEqual([
      "직원 목록 읽기",
      "관심사와 부서 추출",
      "사람별 선물 고르기",
      "결과 정리",
    ]);
    const hinted = await client.callTool({
      name: TOOL.startBulk,
      arguments: { csv: employeeCsv(30), occasion: "설날", budgetPerPerson: 40, currency: "USD" },
      _meta: { "openai/locale": "ko-KR" },
    });
    const { jobId } = StartBulkOutput.parse(hinted.structuredContent);
    await callTool(client, TOOL.waitForJob, { jobId });
    const { events } = await readJobHistory(client, jobId);
    const done = events.at(-1);
    expect(done?.type === "job.completed" && done.payload.summary).toMatch(
      /^30명 중 30명의 설날 선물을 찾았습니다; 1순위 선물의 합계는 \$[\d,]+입니다/,
    );
    expect(events.find((e) => e.type === "job.created")).toMatchObject({ payload: { title: "30행 명단의 설날 선물" } });
    const english = await startJob(client, { csv: employeeCsv(3), occasion: "holiday", budgetPerPerson: 40 });
    expect(english.stages[0].label).toBe("Parsing the employee list");
  });

  it("runs 10,000 rows from start to result through a long-poll loop", async () => {
    const rows = 10_000;
    const csv = employeeCsv(rows);
    const began = performance.now();
    const { jobId } = await startJob(client, { csv, occasion: "holiday", budgetPerPerson: 50 });
    const events: JobEvent[] = [];
    let calls = 0;
    let emptyCalls = 0;
    for (let afterSeq = 0; ;) {
      calls++;
      const result = await callTool(client, TOOL.getJobEvents, { jobId, afterSeq, waitMs: 20_000 });
      const page = GetJobEventsOutput.parse(result.structuredContent);
      if (page.events.length === 0) emptyCalls++;
      events.push(...page.events);
      expect(page.done).toBe(page.status === "completed" && page.events.some((e) => e.type === "job.completed"));
      afterSeq = page.nextSeq;
      if (page.done) break;
    }
    const seconds = (performance.now() - began) / 1000;
    // a long poll answers only when there is something new, so no call came back empty-handed
    expect(emptyCalls).toBe(0);
    expect(calls).toBeLessThanOrEqual(events.length);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.at(-1)).toMatchObject({ type: "job.completed", payload: { resultCount: rows } });

    const pages = await readPages(jobId, 500);
    expect(pages).toHaveLength(rows / 500);
    const people = pages.flatMap((p) => p.people);
    expect(people).toHaveLength(rows);
    expect(pages[0].total).toBe(rows);
    expect(people.map((p) => p.row)).toEqual(people.map((_, i) => i + 2));
    expect(pages.flatMap((p) => p.skipped)).toEqual([]);
    console.info(
      `10,000-row job: ${Math.round(rows / seconds).toLocaleString("en-US")} rows/s from start to the last event ` +
        `(${seconds.toFixed(2)} s), ${events.length} events emitted, ${calls} get_job_events calls`,
    );
  });

  it("reports wait_for_job progress as rising percentages of 100 labelled with the stage, then returns the final view", async () => {
    // the job waits behind another until the wait is under way, so the wait sees it from the start
    const blocker = await startJob(client, { csv: employeeCsv(100_000), occasion: "farewell", budgetPerPerson: 45 });
    const { jobId, stages, status } = await startJob(client, {
      csv: employeeCsv(20_000),
      occasion: "farewell",
      budgetPerPerson: 45,
    });
    expect(status).toBe("pending");
    const progress: Progress[] = [];
    const waiting = callTool(client, TOOL.waitForJob, { jobId }, { onprogress: (p) => void progress.push(p) });
    await new Promise((resolve) => setTimeout(resolve, 50)); // time for the wait to begin; correct either way
    await callTool(client, TOOL.cancelJob, { jobId: blocker.jobId });
    const result = await waiting;
    const final = WaitForJobOutput.parse(result.structuredContent);
    expect(final).toMatchObject({ jobId, status: "completed", done: true, view: { percentage: 100 } });
    expect(toolText(result)).toContain("completed");

    expect(progress.length).toBeGreaterThan(1);
    const labels = stages.map((s) => s.label);
    progress.forEach((p, i) => {
      expect(p.total).toBe(100);
      expect(labels).toContain(p.message);
      if (i > 0) expect(p.progress).toBeGreaterThan(progress[i - 1].progress);
    });
    // each report is a percentage the job really reached
    const { events, raw, last } = await readJobHistory(client, jobId);
    const reached = new Set(
      events.flatMap((e) =>
        e.type === "job.progress" ? [e.payload.percentage] : e.type === "job.completed" ? [100] : [0],
      ),
    );
    for (const p of progress) expect(reached.has(p.progress)).toBe(true);
    expect(progress.at(-1)?.progress).toBe(100);
    expect(final.view).toEqual(toJobView(foldJobEvents(jobId, events)));
    expectJobHistory(raw, last);
  });
});
