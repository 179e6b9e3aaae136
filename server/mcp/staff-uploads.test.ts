/**
 * Staff files in, through the real MCP client against a real server: a real .xlsx with Korean
 * headers and a CP949 CSV uploaded in chunks by the app-only tools, previewed, started and run to
 * completion with exactly the people of the file; a dropped chunk resumed; a digest that does not
 * match; a 50 MB file refused before any chunk; the stored-bytes quota with the jobs' bytes; an
 * upload abandoned for an hour (injected clock) and one dropped once its job completed; and the
 * app-only tools kept from the model. (Another subject's upload: upload-isolation.test.ts.)
 */
import { createHash } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { FILE_LIMITS, FILE_TOOL, StaffPreviewSchema, UploadStateSchema, type UploadState } from "../../shared/files.js";
import {
  CancelJobOutput,
  GetJobResultOutput,
  PACE_META_KEY,
  StartBulkOutput,
  TOOL,
  WaitForJobOutput,
} from "../../shared/tools.js";
import { createMemoryUploadStore } from "../files/uploads/memory.js";
import type { UploadStore } from "../files/uploads/upload-store.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { delimited, encodeText, staffXlsx } from "../../test-kit/staff-files.js";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import { createMemoryStore } from "../jobs/stores/memory.js";
import {
  callTool,
  connectClient,
  startJob,
  startTestServer,
  toolError,
  toolText,
  type TestServer,
} from "../testing/support.js";

const CHUNK = 16 * 1024;
const HOUR = 60 * 60 * 1000;
let clock = Date.now();
let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer({
    jobs: createJobService({ store: createMemoryStore(), match: matchGifts }),
    devPace: true,
    files: { openStore: () => createMemoryUploadStore({ now: () => clock, chunkBytes: CHUNK }), downloadHosts: [] },
  });
  client = await connectClient(server.mcpUrl);
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Staff as a person's spreadsheet has them: Korean names and departments, interests, budgets. */
function staff(count: number) {
  const family = ["김", "이", "박", "최", "정", "강"];
  const given = ["민준", "서연", "도윤", "하은", "지호", "수아", "예준"];
  const teams = ["인사팀", "개발팀", "영업팀", "디자인팀"];
  const hobbies = ["coffee; hiking", "books|music", "요리; wine", "gaming"];
  return Array.from({ length: count }, (_, i) => ({
    name: `${family[i % family.length]}${given[i % given.length]} ${i + 1}`,
    department: teams[i % teams.length],
    interests: hobbies[i % hobbies.length],
    budget: 30 + (i % 5) * 10,
  }));
}
const HEADER = ["이름", "부서", "관심사", "예산"];

const xlsxOf = async (people: ReturnType<typeof staff>): Promise<Buffer> =>
  Buffer.from(
    await staffXlsx([HEADER, ...people.map((p) => [p.name, p.department, p.interests, p.budget])], {
      name: "직원 명단",
    }),
  );
const cp949Of = (people: ReturnType<typeof staff>): Buffer =>
  Buffer.from(
    encodeText(
      delimited([HEADER, ...people.map((p) => [p.name, p.department, p.interests, String(p.budget)])], ",", "\r\n"),
      "cp949",
    ),
  );

async function begin(file: { name: string; size: number; sha256: string }) {
  return callTool(client, FILE_TOOL.beginUpload, file);
}
const stateOf = (result: Awaited<ReturnType<typeof begin>>): UploadState => {
  if (result.isError) throw new Error(toolText(result));
  return UploadStateSchema.parse(result.structuredContent);
};
const putChunk = (uploadId: string, bytes: Buffer, index: number, chunkBytes: number) =>
  callTool(client, FILE_TOOL.putChunk, {
    uploadId,
    index,
    data: bytes.subarray(index * chunkBytes, (index + 1) * chunkBytes).toString("base64"),
  });

/** Begins `bytes` as `name` and sends every chunk but `skip`; the last state. */
async function upload(bytes: Buffer, name: string, skip: number[] = []): Promise<UploadState> {
  let state = stateOf(await begin({ name, size: bytes.length, sha256: sha256(bytes) }));
  for (let i = 0; i < state.chunks; i++) {
    if (!skip.includes(i)) state = stateOf(await putChunk(state.uploadId, bytes, i, state.chunkBytes));
  }
  return state;
}
const preview = async (uploadId: string, reading?: Record<string, unknown>) => {
  const result = await callTool(client, FILE_TOOL.preview, { uploadId, ...(reading ? { reading } : {}) });
  if (result.isError) throw new Error(toolText(result));
  return { preview: StaffPreviewSchema.parse(result.structuredContent), text: toolText(result) };
};

/** The people of a finished job, page by page. */
async function peopleOf(jobId: string): Promise<string[]> {
  const waited = WaitForJobOutput.parse((await callTool(client, TOOL.waitForJob, { jobId })).structuredContent);
  expect(waited.status).toBe("completed");
  const names: string[] = [];
  for (let offset: number | null = 0; offset !== null;) {
    const page = GetJobResultOutput.parse(
      (await callTool(client, TOOL.getJobResult, { jobId, offset, limit: 500 })).structuredContent,
    );
    names.push(...page.people.map((p) => p.name));
    offset = page.nextOffset;
  }
  return names;
}

describe("a staff file uploaded in chunks", () => {
  it("runs a .xlsx with Korean headers: upload → preview → start → the file's people", async () => {
    const people = staff(3_000);
    const bytes = await xlsxOf(people);
    expect(bytes.length).toBeGreaterThan(3 * CHUNK);
    const state = await upload(bytes, "직원 명단.xlsx");
    expect(state).toMatchObject({ complete: true, chunkBytes: CHUNK });
    const { preview: seen, text } = await preview(state.uploadId);
    expect(seen).toMatchObject({
      uploadId: state.uploadId,
      format: "xlsx",
      sheet: "직원 명단",
      rows: 3_000,
      people: 3_000,
    });
    expect(seen.ready).toBe(true);
    expect(seen.columns).toEqual({ name: 0, department: 1, interests: 2, budget: 3 });
    expect(seen.sample[0]).toMatchObject({ name: people[0].name, department: "인사팀" });
    expect(text).not.toBe("");
    const started = await callTool(client, TOOL.startBulk, {
      uploadId: state.uploadId,
      occasion: "설날",
      budgetPerPerson: 40,
    });
    expect(started.isError).toBeFalsy();
    const { jobId } = started.structuredContent as { jobId: string };
    expect((await peopleOf(jobId)).sort()).toEqual(people.map((p) => p.name).sort());
  });

  it("runs a CP949 CSV from Korean Excel, its encoding told from the bytes", async () => {
    const people = staff(1_500);
    const bytes = cp949Of(people);
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bytes)).toThrow(); // really not UTF-8
    const state = await upload(bytes, "staff.csv");
    const { preview: seen } = await preview(state.uploadId);
    expect(seen).toMatchObject({ format: "csv", encoding: "euc-kr", people: 1_500, ready: true });
    expect(seen.sample.map((r) => r.name)).toEqual(people.slice(0, seen.sample.length).map((p) => p.name));
    const { jobId } = await startJob(client, { uploadId: state.uploadId, occasion: "holiday", budgetPerPerson: 40 });
    const names = await peopleOf(jobId);
    expect(names.sort()).toEqual(people.map((p) => p.name).sort());
    // the job completed: the upload is gone
    expect(toolError(await callTool(client, FILE_TOOL.preview, { uploadId: state.uploadId })).message).toMatch(
      new RegExp(`No upload ${state.uploadId}`),
    );
  });

  it("says why rows are skipped in Korean for a Korean person, in the preview and in the job's result", async () => {
    const csv =
      "이름,부서,관심사,예산\n김민준,개발팀,등산;커피,50\n,영업팀,골프,40\n김민준,개발팀,요가,30\n이서연,인사팀,서핑,40\n";
    const bytes = Buffer.from(csv, "utf8");
    const state = await upload(bytes, "명단.csv");
    const english = await preview(state.uploadId);
    expect(english.preview.skipped).toEqual([
      { row: 3, reason: "it has no name" },
      { row: 4, reason: "it repeats row 2" },
    ]);
    const korean = await callTool(client, FILE_TOOL.preview, { uploadId: state.uploadId, locale: "ko-KR" });
    expect(StaffPreviewSchema.parse(korean.structuredContent).skipped).toEqual([
      { row: 3, reason: "이름이 없습니다" },
      { row: 4, reason: "2행과 같은 사람입니다" },
    ]);
    // the model reads the preview in English, whoever the person is
    expect(toolText(korean)).toBe(english.text);
    const started = await callTool(client, TOOL.startBulk, {
      uploadId: state.uploadId,
      occasion: "생일",
      budgetPerPerson: 40,
      locale: "ko-KR",
      // the list's budgets are dollars: said, as a Korean person's locale would otherwise make them won
      currency: "USD",
    });
    const { jobId } = StartBulkOutput.parse(started.structuredContent);
    await callTool(client, TOOL.waitForJob, { jobId });
    const result = GetJobResultOutput.parse((await callTool(client, TOOL.getJobResult, { jobId })).structuredContent);
    expect(result.skipped.map(({ row, reason }) => ({ row, reason }))).toEqual(
      StaffPreviewSchema.parse(korean.structuredContent).skipped,
    );
    // and the job's skipped rows keep the name and department each held, for HR's file
    expect(result.skipped.map((s) => [s.name, s.department])).toEqual([
      [undefined, "영업팀"],
      ["김민준", "개발팀"],
    ]);
    expect(result.people[0].gifts[0].reason).toMatch(/^(등산|커피)(을|를|과|와) /);
    expect(result.figures?.unplaced).toEqual({ count: 1, names: ["서핑"] });
    expect(result.summary).toContain("어떤 관심사인지 알아보지 못한 항목 1개: 서핑");
  });

  it("resumes after a dropped chunk: beginning again says which chunks are held", async () => {
    const bytes = cp949Of(staff(800));
    const partial = await upload(bytes, "resume.csv", [1]);
    expect(partial.complete).toBe(false);
    const missing = toolError(await callTool(client, FILE_TOOL.preview, { uploadId: partial.uploadId }));
    expect(missing.message).toBe(`Upload ${partial.uploadId} is missing chunk 1 of ${partial.chunks}.`);
    const again = stateOf(await begin({ name: "resume.csv", size: bytes.length, sha256: sha256(bytes) }));
    expect(again.uploadId).toBe(partial.uploadId);
    expect(again.received).toEqual(partial.received);
    expect(again.received).not.toContain(1);
    const done = stateOf(await putChunk(again.uploadId, bytes, 1, again.chunkBytes));
    expect(done.complete).toBe(true);
    expect((await preview(done.uploadId)).preview.people).toBe(800);
  });

  it("drops a file whose bytes do not match the digest announced", async () => {
    const bytes = cp949Of(staff(400));
    const other = Buffer.from(bytes);
    other[other.length - 3] ^= 1; // one bit off, same length
    let state = stateOf(await begin({ name: "damaged.csv", size: bytes.length, sha256: sha256(bytes) }));
    for (let i = 0; i < state.chunks; i++) state = stateOf(await putChunk(state.uploadId, other, i, state.chunkBytes));
    const error = toolError(await callTool(client, FILE_TOOL.preview, { uploadId: state.uploadId }));
    expect(error.message).toMatch(/SHA-256 does not match/);
    expect(error.hint).toMatch(/Send the file again from the start/);
    expect(toolError(await callTool(client, FILE_TOOL.preview, { uploadId: state.uploadId })).message).toMatch(
      /No upload/,
    );
  });

  it("refuses a 50 MB file before any chunk, with the limit in words", async () => {
    const error = toolError(await begin({ name: "huge.xlsx", size: 50 * 1024 * 1024, sha256: "a".repeat(64) }));
    expect(error).toMatchObject({
      code: "input_too_large",
      message: `The file is 50 MB; the largest staff file this server takes is ${FILE_LIMITS.maxFileBytes / 1024 / 1024} MB.`,
    });
  });

  it("refuses chunks that do not fit, and an upload nobody began", async () => {
    const bytes = cp949Of(staff(1_000));
    const state = stateOf(await begin({ name: "fit.csv", size: bytes.length, sha256: sha256(bytes) }));
    const wrong = toolError(
      await callTool(client, FILE_TOOL.putChunk, { uploadId: state.uploadId, index: 0, data: "AAAA" }),
    );
    expect(wrong.message).toMatch(/Chunk 0 has 3 bytes; it must have 16384/);
    const range = toolError(await putChunk(state.uploadId, bytes, state.chunks, state.chunkBytes));
    expect(range.message).toMatch(/out of range/);
    expect(
      toolError(await callTool(client, FILE_TOOL.putChunk, { uploadId: state.uploadId, index: 0, data: "@@" })).message,
    ).toMatch(/not base64/);
    expect(toolError(await putChunk("upl_nobody", bytes, 0, CHUNK)).hint).toMatch(
      /Begin the upload again with begin_file_upload/,
    );
  });

  it("forgets an upload an hour after its last chunk", async () => {
    const bytes = cp949Of(staff(300));
    const state = await upload(bytes, "idle.csv");
    clock += HOUR - 1;
    expect((await preview(state.uploadId)).preview.people).toBe(300); // a read is activity too
    clock += HOUR;
    expect(toolError(await callTool(client, FILE_TOOL.preview, { uploadId: state.uploadId })).message).toMatch(
      /No upload .*dropped an hour after their last chunk/,
    );
    const again = stateOf(await begin({ name: "idle.csv", size: bytes.length, sha256: sha256(bytes) }));
    expect(again.uploadId).not.toBe(state.uploadId);
    expect(again.received).toEqual([]);
  });

  it("keeps the upload after a canceled job, so that the same file can be started again", async () => {
    const state = await upload(cp949Of(staff(2_000)), "again.csv");
    // slowed down, so that it is still running when it is canceled
    const first = await client.callTool({
      name: TOOL.startBulk,
      arguments: { uploadId: state.uploadId, occasion: "o", budgetPerPerson: 40 },
      _meta: { [PACE_META_KEY]: 500 },
    });
    const { jobId } = StartBulkOutput.parse(first.structuredContent);
    const canceled = CancelJobOutput.parse((await callTool(client, TOOL.cancelJob, { jobId })).structuredContent);
    expect(canceled.changed).toBe(true);
    const { jobId: second } = await startJob(client, { uploadId: state.uploadId, occasion: "o", budgetPerPerson: 40 });
    expect(await peopleOf(second)).toHaveLength(2_000);
  });

  it("keeps the upload tools from the model, and declares the file parameter", async () => {
    const { tools } = await client.listTools();
    for (const name of [FILE_TOOL.beginUpload, FILE_TOOL.putChunk, FILE_TOOL.preview]) {
      const tool = tools.find((t) => t.name === name);
      expect(tool?._meta).toMatchObject({ ui: { visibility: ["app"] }, "openai/visibility": "private" });
    }
    const start = tools.find((t) => t.name === TOOL.startBulk);
    expect(start?._meta?.["openai/fileParams"]).toEqual(["file"]);
    expect(Object.keys(start?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["file", "uploadId", "reading"]),
    );
  });
});

describe("a bulk analysis asked for without a staff list", () => {
  it("asks the person for a file in the widget", async () => {
    const result = await callTool(client, TOOL.startBulk, { occasion: "송년회", budgetPerPerson: 30, locale: "ko-KR" });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      awaitingFile: true,
      occasion: "송년회",
      budgetPerPerson: 30,
      locale: "ko",
      // the budget's currency, which the person's locale decides: won
      currency: "KRW",
      maxFileBytes: FILE_LIMITS.maxFileBytes,
    });
    expect(toolText(result)).toMatch(/widget now asks the person to choose their staff file/);
  });

  it("refuses two lists at once", async () => {
    const error = toolError(
      await callTool(client, TOOL.startBulk, {
        csv: "name\nAda\n",
        uploadId: "upl_x",
        occasion: "o",
        budgetPerPerson: 1,
      }),
    );
    expect(error.message).toBe("Both csv and uploadId were given.");
  });
});

describe("the stored-bytes quota", () => {
  const LIMIT = 1024 * 1024;
  const jobStore = createMemoryStore();
  let uploads: UploadStore;
  let quotaServer: TestServer;
  let quotaClient: Client;
  beforeAll(async () => {
    quotaServer = await startTestServer({
      jobs: createJobService({ store: jobStore, match: matchGifts, limits: { maxStoredBytesPerSubject: LIMIT } }),
      files: {
        openStore: () => (uploads = createMemoryUploadStore({ chunkBytes: CHUNK })),
        jobBytes: async (subject) => (await jobStore.usage(subject, 0)).bytes,
        downloadHosts: [],
      },
    });
    quotaClient = await connectClient(quotaServer.mcpUrl);
  });
  afterAll(async () => {
    await quotaClient?.close();
    await quotaServer?.close();
  });
  const beginAs = (size: number, n: number) =>
    callTool(quotaClient, FILE_TOOL.beginUpload, { name: `q${n}.csv`, size, sha256: String(n % 10).repeat(64) });

  it("counts uploads with the subject's jobs, to the byte", async () => {
    const { jobId } = await startJob(quotaClient, { csv: employeeCsv(300), occasion: "o", budgetPerPerson: 40 });
    await callTool(quotaClient, TOOL.waitForJob, { jobId });
    expect(stateOf(await beginAs(100 * 1024, 1)).received).toEqual([]);
    const jobsKeep = (await jobStore.usage("anonymous", 0)).bytes;
    expect(jobsKeep).toBeGreaterThan(0);
    const room = LIMIT - jobsKeep - (await uploads.bytesOf("anonymous"));
    const refused = toolError(await beginAs(room + 1, 2));
    expect(refused.code).toBe("quota_exceeded");
    expect(refused.message).toMatch(
      /^Your uploads and analyses keep [\d.]+ MB of files and results, and this file adds [\d.]+ MB; the limit is 1 MB\.$/,
    );
    expect(refused.hint).toMatch(/delete_job/);
    expect(stateOf(await beginAs(room, 3)).received).toEqual([]);
    // deleting the job makes its room again
    await callTool(quotaClient, TOOL.deleteJob, { jobId });
    expect(stateOf(await beginAs(jobsKeep, 4)).received).toEqual([]);
    expect(toolError(await beginAs(1, 5)).code).toBe("quota_exceeded");
  });
});
