/**
 * `export_job_result` over real HTTP with the official MCP client: the picks and the error ledger
 * as CSV and .xlsx, read back (csv-parse, exceljs) equal to what get_job_result answers; a partial
 * file while the job composes; the expiring link, which downloads the same file and refuses an
 * expired, forged or foreign token without telling whether the job exists; the formula guard.
 */
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ExportOutput, FILE_TOOL, type ExportResult, type SkippedRow } from "../../../shared/files.js";
import { GetJobResultOutput, TOOL, WaitForJobOutput, type PersonResult } from "../../../shared/tools.js";
import { employeeCsv } from "../../../test-kit/employee-csv.js";
import { createFileLinks } from "../../files/export/file-links.js";
import { matchGifts } from "../../gifts/matcher.js";
import { createJobService } from "../../jobs/job-service.js";
import type { JobStore } from "../../jobs/store.js";
import { createMemoryStore } from "../../jobs/stores/memory.js";
import {
  callTool,
  connectClient,
  startJob,
  startTestServer,
  toolError,
  toolText,
  useTestClient,
} from "../../../test-kit/servers/test-server.js";

const SECRET = new Uint8Array(32).fill(7);
const MINUTE = 60_000;
/** How far the links' clock is ahead of the real one: moved to let links expire. */
let skew = 0;
const ctx = useTestClient({ fileLinks: { secret: async () => SECRET, now: () => Date.now() + skew } });

const FORMULA_NAME = "=cmd|' /C calc'!A0";
/** 2,500 generated people (three stored chunks), a Korean name, a formula, and two rows that are skipped. */
const CSV = [
  employeeCsv(2_500).trimEnd(),
  "김민준,개발팀,커피;등산,40",
  `"${FORMULA_NAME}",Finance,tea,30`,
  ",Sales,golf,30",
  "Bad Budget,Sales,golf,lots",
  "+Plus Sign,@Ops,-minus,25",
].join("\n");

async function exportResult(client: Client, args: Record<string, unknown>): Promise<ExportResult> {
  const result = await callTool(client, FILE_TOOL.exportResult, args);
  if (result.isError) throw new Error(toolText(result));
  return ExportOutput.parse(result.structuredContent);
}

/** Every person and skipped row of a job, paged through get_job_result. */
async function wholeResult(client: Client, jobId: string) {
  const people: PersonResult[] = [];
  const skipped: SkippedRow[] = [];
  let partial = false;
  for (let offset: number | null = 0; offset !== null;) {
    const result = await callTool(client, TOOL.getJobResult, { jobId, offset, limit: 500 });
    if (result.isError) throw new Error(toolText(result));
    const page = GetJobResultOutput.parse(result.structuredContent);
    people.push(...page.people);
    skipped.push(...page.skipped);
    partial = page.partial;
    offset = page.nextOffset;
  }
  return { people, skipped, partial };
}

async function finishedJob(client: Client) {
  const { jobId } = await startJob(client, { occasion: "추석", budgetPerPerson: 50, csv: CSV });
  const waited = WaitForJobOutput.parse(
    (await callTool(client, TOOL.waitForJob, { jobId, timeoutMs: 60_000 })).structuredContent,
  );
  expect(waited.status).toBe("completed");
  return { jobId, ...(await wholeResult(client, jobId)) };
}

/** What a spreadsheet must show for each person: the picks file's columns, written out here anew. */
const expectedPicks = (people: PersonResult[]): (string | number)[][] =>
  people.map((p) => [
    p.row,
    p.name,
    p.department ?? "",
    p.interests.join("; "),
    p.budget,
    ...[0, 1, 2].flatMap((i) => {
      const g = p.gifts[i];
      return g ? [g.name, g.price, g.category, g.reason] : ["", "", "", ""];
    }),
  ]);

/** An English job in dollars: the currency in the money columns' headers. */
const HEADER = ["row", "name", "department", "interests", "budget (USD)"];

/** The CSV's rows after the header, every cell a string; fails unless it starts with a UTF-8 BOM. */
function readCsv(bytes: Buffer): string[][] {
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows: string[][] = parse(bytes, { bom: true, relax_column_count: false });
  return rows.slice(1);
}

/** The cell values of the workbook's one sheet, header row left out; blank cells read as "". */
async function readXlsx(bytes: Buffer): Promise<{ rows: (string | number)[][]; sheet: ExcelJS.Worksheet }> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(new Uint8Array(bytes).buffer); // exceljs types its Buffer as an ArrayBuffer
  expect(book.worksheets).toHaveLength(1);
  const sheet = book.worksheets[0];
  const rows: (string | number)[][] = [];
  const width = sheet.getRow(1).cellCount;
  sheet.eachRow((row, n) => {
    if (n === 1) return;
    rows.push(
      Array.from({ length: width }, (_, i) => {
        const value = row.getCell(i + 1).value;
        if (typeof value === "string" || typeof value === "number") return value;
        if (value === null || value === undefined) return "";
        throw new Error(`cell ${row.getCell(i + 1).address} holds ${JSON.stringify(value)}, not text or a number`);
      }),
    );
  });
  return { rows, sheet };
}

/** A CSV cell as the formula guard writes it. */
const defused = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
const inline = (out: ExportResult) => Buffer.from(out.data ?? "", "base64");

/** One finished job, exported by every test. */
let job: Awaited<ReturnType<typeof finishedJob>>;
beforeAll(async () => {
  job = await finishedJob(ctx.client);
  expect(job.people).toHaveLength(2_503);
  expect(job.skipped.map((s) => s.row)).toEqual([2_504, 2_505]);
});
afterEach(() => void (skew = 0));

describe(`${FILE_TOOL.exportResult}: the files`, () => {
  it("writes the picks as CSV equal to get_job_result's people, with a link and a resource_link", async () => {
    const result = await callTool(ctx.client, FILE_TOOL.exportResult, { jobId: job.jobId, inline: true });
    const out = ExportOutput.parse(result.structuredContent);
    expect(out).toMatchObject({
      jobId: job.jobId,
      fileName: "추석 gifts from a list of 2,505 rows.csv",
      mimeType: "text/csv; charset=utf-8",
      rows: 2_503,
      partial: false,
    });
    const bytes = inline(out);
    expect(out.size).toBe(bytes.length);
    expect(out.url.startsWith(`${ctx.server.url}/files/`)).toBe(true);
    expect(out.expiresAt).toBeGreaterThan(Date.now() + 14 * MINUTE);
    expect(result.content).toContainEqual({
      type: "resource_link",
      uri: out.url,
      name: out.fileName,
      title: out.fileName,
      description: expect.any(String),
      mimeType: out.mimeType,
    });
    expect(toolText(result)).toContain(out.url);
    expect(toolText(result)).toMatch(/^Saved 2,503 people as a CSV file, "[^"]+" \((\d+ KB|\d+\.\d MB)\)\./);
    expect(readCsv(bytes)).toEqual(expectedPicks(job.people).map((cells) => cells.map((c) => defused(String(c)))));
    expect(parse(bytes, { bom: true, to: 1 })[0].slice(0, 6)).toEqual([...HEADER, "gift 1"]);
  });

  it("writes the picks as .xlsx with text and number cells equal to get_job_result's people", async () => {
    const out = await exportResult(ctx.client, { jobId: job.jobId, format: "xlsx", inline: true });
    expect(out).toMatchObject({
      fileName: "추석 gifts from a list of 2,505 rows.xlsx",
      mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      rows: 2_503,
    });
    const { rows, sheet } = await readXlsx(inline(out));
    expect(rows).toEqual(expectedPicks(job.people));
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      ...HEADER,
      "gift 1",
      "gift 1 price (USD)",
      "gift 1 category",
      "gift 1 reason",
      "gift 2",
      "gift 2 price (USD)",
      "gift 2 category",
      "gift 2 reason",
      "gift 3",
      "gift 3 price (USD)",
      "gift 3 category",
      "gift 3 reason",
    ]);
  });

  it("keeps a formula-like name text: apostrophe-guarded in CSV, a plain string cell in .xlsx", async () => {
    const formula = job.people.find((p) => p.name === FORMULA_NAME)!;
    const csv = readCsv(inline(await exportResult(ctx.client, { jobId: job.jobId, inline: true })));
    const line = csv.find((cells) => cells[0] === String(formula.row))!;
    expect(line[1]).toBe(`'${FORMULA_NAME}`);
    const plus = csv.find((cells) => cells[1] === "'+Plus Sign")!;
    expect(plus.slice(2, 4)).toEqual(["'@Ops", "'-minus"]);
    const { sheet } = await readXlsx(
      inline(await exportResult(ctx.client, { jobId: job.jobId, format: "xlsx", inline: true })),
    );
    const cell = sheet.getRow(job.people.indexOf(formula) + 2).getCell(2);
    expect(cell.type).toBe(ExcelJS.ValueType.String);
    expect(cell.value).toBe(FORMULA_NAME);
    expect(cell.formula).toBeUndefined();
    expect(sheet.getRow(2).getCell(5).type).toBe(ExcelJS.ValueType.Number);
    // money cells carry the currency's number format, text cells none
    expect(sheet.getRow(2).getCell(5).numFmt).toBe('"$"#,##0.00');
    expect(sheet.getRow(2).getCell(7).numFmt).toBe('"$"#,##0.00');
    expect(sheet.getRow(2).getCell(2).numFmt).toBeUndefined();
  });

  it("writes the error ledger as CSV and .xlsx equal to get_job_result's skipped rows: row, name, department, why", async () => {
    const expected = job.skipped.map((s) => [s.row, s.name ?? "", s.department ?? "", s.reason]);
    expect(expected[0]).toEqual([2_504, "", "Sales", "it has no name"]);
    const csv = await exportResult(ctx.client, { jobId: job.jobId, part: "skipped", inline: true });
    expect(csv).toMatchObject({ rows: 2, fileName: "추석 gifts from a list of 2,505 rows - skipped rows.csv" });
    expect(readCsv(inline(csv))).toEqual(expected.map((cells) => cells.map(String)));
    const xlsx = await exportResult(ctx.client, { jobId: job.jobId, part: "skipped", format: "xlsx", inline: true });
    expect((await readXlsx(inline(xlsx))).rows).toEqual(expected);
  });
});

describe(`${FILE_TOOL.exportResult}: its link`, () => {
  it("serves the same file at its link, streamed, with its name, type and no caching", async () => {
    for (const format of ["csv", "xlsx"] as const) {
      const out = await exportResult(ctx.client, { jobId: job.jobId, format, inline: true });
      const response = await fetch(out.url);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(out.mimeType);
      expect(response.headers.get("cache-control")).toBe("no-store, private");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-length")).toBeNull(); // written as it is sent
      const disposition = response.headers.get("content-disposition") ?? "";
      expect(disposition).toMatch(new RegExp(`^attachment; filename="gift-picks\\.${format}"; filename\\*=UTF-8''`));
      expect(decodeURIComponent(disposition.split("''")[1])).toBe(out.fileName);
      const bytes = Buffer.from(await response.arrayBuffer());
      if (format === "csv") expect(bytes.equals(inline(out))).toBe(true);
      // a zip stamps each entry with the time it was written: the same cells, byte for byte apart from that
      else expect((await readXlsx(bytes)).rows).toEqual((await readXlsx(inline(out))).rows);
      expect(bytes.length).toBe(out.size);
    }
  });

  it("refuses an expired, forged or foreign link with a plain sentence that never says whether the job exists", async () => {
    const out = await exportResult(ctx.client, { jobId: job.jobId });
    const [token, name] = out.url.split("/files/")[1].split("/");
    expect(decodeURIComponent(name)).toBe(out.fileName);
    const get = async (t: string) => {
      const response = await fetch(`${ctx.server.url}/files/${t}`);
      if (response.status !== 200) expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      return { status: response.status, text: await response.text() };
    };
    // links made with the server's key, for a job that does not exist and for Alice's job as someone else
    const signed = createFileLinks({ secret: async () => SECRET });
    const sign = async (jobId: string, subject: string) =>
      (await signed.issue({ jobId, subject, format: "csv", part: "picks" }, ctx.server.url, "a.csv")).url.split(
        "/files/",
      )[1];
    const notFound = await get(await sign("job_doesNotExist0000000000", "anonymous"));
    expect(notFound).toEqual({
      status: 404,
      text: "There is no file at this link. Export the file again for a new link.\n",
    });
    expect(await get(await sign(job.jobId, "someone-else"))).toEqual(notFound);
    const [body, signature] = token.split(".");
    const flipped = `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`;
    expect(await get(`${body}.${flipped}`)).toEqual(notFound);
    const otherKey = createFileLinks({ secret: async () => new Uint8Array(32).fill(8) });
    const foreign = await otherKey.issue(
      { jobId: job.jobId, subject: "anonymous", format: "csv", part: "picks" },
      "",
      "a.csv",
    );
    expect(await get(foreign.url.split("/files/")[1])).toEqual(notFound);
    expect(await get("not-a-token")).toEqual(notFound);
    expect((await get(token)).status).toBe(200);
    skew = 15 * MINUTE + 1;
    expect(await get(token)).toEqual({
      status: 410,
      text: "This download link has expired: links work for 15 minutes. Export the file again for a new link.\n",
    });
  });
});

describe(`${FILE_TOOL.exportResult}: what it tells the model`, () => {
  it("says one person, and a small file's size in KB", async () => {
    const { jobId } = await startJob(ctx.client, {
      occasion: "farewell",
      budgetPerPerson: 40,
      csv: "name,interests\nJo,golf",
    });
    await callTool(ctx.client, TOOL.waitForJob, { jobId, timeoutMs: 60_000 });
    const result = await callTool(ctx.client, FILE_TOOL.exportResult, { jobId, inline: true });
    expect(toolText(result)).toMatch(
      /^Saved 1 person as a CSV file, "farewell gifts from a list of 1 row\.csv" \(1 KB\)\./,
    );
  });
});

describe(`${FILE_TOOL.exportResult}: its listing and the calls it refuses`, () => {
  it("is listed for the model and callable by the widget", async () => {
    const { tools } = await ctx.client.listTools();
    const tool = tools.find((t) => t.name === FILE_TOOL.exportResult);
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tool?._meta).toMatchObject({ "openai/widgetAccessible": true });
    expect(tool?._meta).not.toHaveProperty("openai/visibility");
    expect(tool?._meta?.ui).toBeUndefined();
  });

  it("answers unknown_job for a job that is not the caller's, and job_not_finished for a canceled one", async () => {
    const missing = await callTool(ctx.client, FILE_TOOL.exportResult, { jobId: "job_doesNotExist0000000000" });
    expect(toolError(missing)).toMatchObject({ code: "unknown_job" });
    const { jobId } = await startJob(ctx.client, {
      occasion: "holiday",
      budgetPerPerson: 50,
      csv: employeeCsv(50_000),
    });
    await callTool(ctx.client, TOOL.cancelJob, { jobId });
    const canceled = await callTool(ctx.client, FILE_TOOL.exportResult, { jobId });
    expect(toolError(canceled)).toMatchObject({
      code: "job_not_finished",
      message: `Job ${jobId} was canceled, so it has no result.`,
    });
  });
});

/**
 * `store` whose puts of result chunks each take longer than a slice of a job's work (so the compose
 * stage reports its progress between chunks) and whose put of chunk `held` waits until released.
 */
function holdingChunk(store: JobStore, held: number) {
  let reached!: () => void;
  let release!: () => void;
  const put = { reached: new Promise<void>((r) => (reached = r)), released: new Promise<void>((r) => (release = r)) };
  const putResultChunk: JobStore["putResultChunk"] = (jobId, index, body) => {
    const until = performance.now() + 10;
    while (performance.now() < until); // a slow write, inside the slice that composed the chunk
    if (index !== held) return store.putResultChunk(jobId, index, body);
    reached();
    return put.released.then(() => store.putResultChunk(jobId, index, body));
  };
  return { store: { ...store, putResultChunk }, reached: put.reached, release };
}

describe(`${FILE_TOOL.exportResult} while the job composes`, () => {
  it("writes the people composed so far, marked partial, even when the job ends mid-file, then the whole result", async () => {
    const held = holdingChunk(createMemoryStore(), 2);
    const server = await startTestServer({
      jobs: createJobService({ store: held.store, match: matchGifts }),
      fileLinks: { publicUrl: "https://gifts.example.com/" },
    });
    const client = await connectClient(server.mcpUrl);
    try {
      const { jobId } = await startJob(client, { occasion: "holiday", budgetPerPerson: 50, csv: employeeCsv(6_000) });
      await held.reached;
      const soFar = await wholeResult(client, jobId);
      expect(soFar).toMatchObject({ partial: true });
      expect(soFar.people).toHaveLength(2_000);
      const partial = await exportResult(client, { jobId, format: "xlsx", inline: true });
      expect(partial).toMatchObject({
        partial: true,
        rows: 2_000,
        fileName: "holiday gifts from a list of 6,000 rows (partial).xlsx",
      });
      expect(partial.url.startsWith("https://gifts.example.com/files/")).toBe(true);
      expect(toolText(await callTool(client, FILE_TOOL.exportResult, { jobId }))).toContain("still running");
      expect((await readXlsx(inline(partial))).rows).toEqual(expectedPicks(soFar.people));
      // the link names the public origin; this server answers it at its own
      const link = await fetch(partial.url.replace("https://gifts.example.com", server.url));
      expect(link.status).toBe(200);
      expect((await readXlsx(Buffer.from(await link.arrayBuffer()))).rows).toEqual(expectedPicks(soFar.people));
      // a file begun while the job composes and finished after it ended reads the rest from the result
      const opened = await server.jobs.openResult(jobId, { subject: "anonymous" });
      if (!opened.ok) throw new Error(opened.error.message);
      const chunks = opened.value.people();
      const first = await chunks.next();
      held.release();
      await callTool(client, TOOL.waitForJob, { jobId, timeoutMs: 60_000 });
      const second = await chunks.next();
      expect([first.value, second.value]).toEqual([soFar.people.slice(0, 1_000), soFar.people.slice(1_000)]);
      expect((await chunks.next()).done).toBe(true);
      const done = await exportResult(client, { jobId, inline: true });
      expect(done).toMatchObject({ partial: false, rows: 6_000 });
      const whole = await wholeResult(client, jobId);
      expect(readCsv(inline(done))).toEqual(
        expectedPicks(whole.people).map((cells) => cells.map((c) => defused(String(c)))),
      );
    } finally {
      held.release();
      await client.close();
      await server.close();
    }
  });
});
