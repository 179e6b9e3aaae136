/**
 * A Korean team's workbook end to end, written by another program (SheetJS: strings inline in the
 * sheet, no shared strings), through the real MCP client against a real server: uploaded in chunks,
 * previewed (the staff list chosen over the guide sheet before it, under its title row, 사번 as
 * identity), started in won from a Korean locale, run to the end; every person is there, in won,
 * within budget, no U+FFFD anywhere; the picks come back as CSV and .xlsx that another library reads
 * whole.
 */
import { createHash } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { parse } from "csv-parse/sync";
import * as XLSX from "xlsx";
import {
  ExportOutput,
  FILE_TOOL,
  StaffPreviewSchema,
  UploadStateSchema,
  type StaffPreview,
  type UploadState,
} from "../../shared/files.js";
import { GetJobResultOutput, StartBulkOutput, TOOL, WaitForJobOutput, type PersonResult } from "../../shared/tools.js";
import { KOREAN_HEADER, koreanStaff, koreanWorkbook } from "../../test-kit/korean-workbook.js";
import { createMemoryUploadStore } from "../files/uploads/sqlite.js";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import { createMemoryStore } from "../jobs/stores/memory.js";
import {
  callTool,
  connectClient,
  startTestServer,
  toolText,
  type TestServer,
} from "../../test-kit/servers/test-server.js";

const PEOPLE = 3_000;
const REPLACEMENT = "\uFFFD";
let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer({
    jobs: createJobService({ store: createMemoryStore(), match: matchGifts }),
    files: { openStore: () => createMemoryUploadStore(), downloadHosts: [] },
  });
  client = await connectClient(server.mcpUrl);
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

const parsed = <T>(schema: { parse(x: unknown): T }, result: Awaited<ReturnType<typeof callTool>>): T => {
  if (result.isError) throw new Error(toolText(result));
  return schema.parse(result.structuredContent);
};

/** Sends `bytes` as the widget does: begin, then every chunk. */
async function upload(bytes: Buffer, name: string): Promise<UploadState> {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  let state = parsed(
    UploadStateSchema,
    await callTool(client, FILE_TOOL.beginUpload, { name, size: bytes.length, sha256 }),
  );
  for (let index = 0; index < state.chunks; index++) {
    const data = bytes.subarray(index * state.chunkBytes, (index + 1) * state.chunkBytes).toString("base64");
    state = parsed(
      UploadStateSchema,
      await callTool(client, FILE_TOOL.putChunk, { uploadId: state.uploadId, index, data }),
    );
  }
  return state;
}

/** Every person of a finished job, page by page, with each page's currency. */
async function resultOf(jobId: string): Promise<{ people: PersonResult[]; currencies: Set<string>; text: string }> {
  const people: PersonResult[] = [];
  const currencies = new Set<string>();
  let text = "";
  for (let offset: number | null = 0; offset !== null;) {
    const reply = await callTool(client, TOOL.getJobResult, { jobId, offset, limit: 500 });
    const page = parsed(GetJobResultOutput, reply);
    text += JSON.stringify(reply);
    people.push(...page.people);
    currencies.add(String(page.currency));
    offset = page.nextOffset;
  }
  return { people, currencies, text };
}

async function exported(jobId: string, format: "csv" | "xlsx"): Promise<Buffer> {
  const file = parsed(ExportOutput, await callTool(client, FILE_TOOL.exportResult, { jobId, format, inline: true }));
  return Buffer.from(file.data ?? "", "base64");
}

describe("a Korean team's workbook, written by SheetJS", () => {
  const staff = koreanStaff(PEOPLE);
  let preview: StaffPreview;
  let jobId: string;

  it("is previewed on the staff list's sheet, under its title, every person found in won", async () => {
    const bytes = Buffer.from(koreanWorkbook(staff));
    const state = await upload(bytes, "2026 연말 선물 명단.xlsx");
    expect(state.complete).toBe(true);
    const reply = await callTool(client, FILE_TOOL.preview, { uploadId: state.uploadId, locale: "ko-KR" });
    preview = parsed(StaffPreviewSchema, reply);
    expect(JSON.stringify(reply)).not.toContain(REPLACEMENT);
    expect(preview).toMatchObject({ format: "xlsx", sheet: "직원 명단", people: PEOPLE, skippedCount: 0, ready: true });
    expect(preview.currency).toBe("KRW");
    expect(preview.headers).toEqual(KOREAN_HEADER);
    expect(JSON.stringify(preview.sheets)).toContain("안내");
    // the two 김민준 of 개발팀 have their own 사번: two people
    expect(preview.sample.length).toBeGreaterThan(0);

    const started = await callTool(client, TOOL.startBulk, {
      uploadId: state.uploadId,
      occasion: "연말 감사 선물",
      budgetPerPerson: 50_000,
      locale: "ko-KR",
    });
    ({ jobId } = parsed(StartBulkOutput, started));
    const waited = parsed(WaitForJobOutput, await callTool(client, TOOL.waitForJob, { jobId, timeoutMs: 120_000 }));
    expect(waited.status).toBe("completed");
    // the occasion's own 선물 is not said twice
    expect(waited.view.title).toMatch(/^[\d,]+행 명단의 연말 감사 선물$/);
  }, 180_000);

  it("ends with every person, in won, within budget, and no broken character anywhere", async () => {
    const { people, currencies, text } = await resultOf(jobId);
    expect(text).not.toContain(REPLACEMENT);
    expect(currencies).toEqual(new Set(["KRW"]));
    expect(people).toHaveLength(PEOPLE);
    const namesakes = people.filter((p) => p.name === "김민준" && p.department === "개발팀");
    expect(namesakes).toHaveLength(2);
    for (const person of people) {
      // the title is row 1, a blank row 2, the header row 3: person i is on row i + 4
      const source = staff[person.row - 4];
      expect({ name: person.name, department: person.department, budget: person.budget }).toEqual({
        name: source.name,
        department: source.department,
        budget: source.budget,
      });
      for (const gift of person.gifts) expect(gift.price).toBeLessThanOrEqual(person.budget);
    }
    expect(people.filter((p) => p.gifts.length > 0).length).toBeGreaterThan(PEOPLE * 0.95);
    expect(people.some((p) => p.gifts.some((g) => g.reason.includes("₩")))).toBe(true);
  });

  it("comes back as a CSV and an .xlsx that another library reads whole", async () => {
    const csv = (await exported(jobId, "csv")).toString("utf8");
    expect(csv).not.toContain(REPLACEMENT);
    const rows: string[][] = parse(csv.replace(/^\uFEFF/, ""));
    expect(rows).toHaveLength(PEOPLE + 1);
    expect(rows[0].join(",")).toContain("KRW");
    expect(new Set(rows.slice(1).map((r) => r[1]))).toEqual(new Set(staff.map((p) => p.name)));

    const book = XLSX.read(await exported(jobId, "xlsx"), { type: "buffer" });
    const sheet = book.Sheets[book.SheetNames[0]];
    const cells = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true });
    expect(cells).toHaveLength(PEOPLE + 1);
    expect(JSON.stringify(cells)).not.toContain(REPLACEMENT);
    expect(new Set(cells.slice(1).map((r) => r[1]))).toEqual(new Set(staff.map((p) => p.name)));
  });
});
