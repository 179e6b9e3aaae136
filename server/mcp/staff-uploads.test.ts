/**
 * Staff files in, through the real MCP client against a real server: a real .xlsx with Korean
 * headers and a CP949 CSV uploaded in chunks by the app-only tools, previewed, started and run to
 * completion with exactly the people of the file; a dropped chunk resumed; a digest that does not
 * match; a 50 MB file refused before any chunk; the stored-bytes quota counting what uploads hold
 * with the jobs' bytes, a flood of empty uploads that blocks nobody, and drop_file_upload; an
 * unfinished upload dropped 10 minutes after its latest chunk and a whole one an hour after its
 * last use (injected clock), and one dropped once its job completed; and the app-only tools kept
 * from the model. (Another subject's upload: upload-isolation.test.ts.)
 */
import { createHash } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { FILE_LIMITS, FILE_TOOL, StaffPreviewSchema, UploadStateSchema, type UploadState } from "../../shared/files.js";
import { CancelJobOutput, GetJobResultOutput, StartBulkOutput, TOOL, WaitForJobOutput } from "../../shared/tools.js";
import { PACE_META_KEY, pauseAtPace } from "../dev-pace.js";
import { createMemoryUploadStore } from "../files/uploads/sqlite.js";
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
} from "../../test-kit/servers/test-server.js";

const CHUNK = 16 * 1024;
const HOUR = 60 * 60 * 1000;
let clock = Date.now();
let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer({
    jobs: createJobService({ store: createMemoryStore(), match: matchGifts, beforeSlice: pauseAtPace }),
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
    expect(seen.columns).toEqual({ name: 0, department: 1, interests: 2, budget: 3, id: -1 });
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

  it("says what is left to settle in Korean for a Korean person, and in English to the model", async () => {
    const bytes = Buffer.from("이름,부서\n김민준,개발팀\n", "utf8");
    const state = await upload(bytes, "관심사 없는 명단.csv");
    const korean = await callTool(client, FILE_TOOL.preview, { uploadId: state.uploadId, locale: "ko-KR" });
    const { problems, ready } = StaffPreviewSchema.parse(korean.structuredContent);
    expect(ready).toBe(false);
    expect(problems).toEqual([
      '관심사 열이 없습니다. 머리글은 "이름", "부서"입니다. 관심사 열을 골라 주세요("interests" (or "interest", "관심사") 같은 머리글은 저절로 찾습니다).',
    ]);
    expect(toolText(korean)).toContain("No column holds the interests");
  });

  it("says why rows are skipped in Korean for a Korean person, in the preview and in the job's result", async () => {
    const csv =
      "이름,부서,관심사,예산\n김민준,개발팀,등산;커피,50\n,영업팀,골프,40\n김민준,개발팀,등산; 커피,50\n이서연,인사팀,마술,40\n";
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
    // the model reads the preview in English, whoever the person is (its budgets read in the Korean
    // person's won, where 50 and 40 buy nothing: said, as dollars typed into a won list)
    const lines = toolText(korean).split("\n");
    const low = lines.find((line) => line.includes("cheapest gift"));
    expect(low).toMatch(/^2 people have budgets under the cheapest gift \(₩6,500\), so would get none \(rows 2, 5\)\./);
    expect(lines.filter((line) => line !== low)).toEqual(
      english.text.replace("Budgets read in USD.", "Budgets read in KRW.").split("\n"),
    );
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
    expect(result.figures?.unplaced).toEqual({ count: 1, names: ["마술"] });
    expect(result.summary).toContain("어떤 관심사인지 알아보지 못한 항목 1개: 마술");
  });

  it("knows people by 사번; without one keeps namesakes apart, flagged, and merges them when asked, preview and job alike", async () => {
    const result = async (jobId: string) => {
      await callTool(client, TOOL.waitForJob, { jobId });
      return GetJobResultOutput.parse((await callTool(client, TOOL.getJobResult, { jobId })).structuredContent);
    };
    const withIds =
      '사번,이름,부서,관심사,예산\nA-001,김민준,개발팀,"등산, 커피",50\nA-002,김민준,개발팀,영화/독서,40\nA-001,김민준,개발팀,등산,50\n';
    const byId = await upload(Buffer.from(withIds, "utf8"), "사번.csv");
    const seen = (await preview(byId.uploadId)).preview;
    expect(seen).toMatchObject({ people: 2, skipped: [{ row: 4, reason: 'its ID "A-001" repeats row 2' }] });
    expect(seen).toMatchObject({ possibleDuplicates: [], possibleDuplicateCount: 0 });
    expect(seen.columns.id).toBe(0);
    const job = await startJob(client, { uploadId: byId.uploadId, occasion: "생일", budgetPerPerson: 40 });
    const done = await result(job.jobId);
    expect(done.people.map((p) => [p.row, p.name, p.interests])).toEqual([
      [2, "김민준", ["등산", "커피"]],
      [3, "김민준", ["영화", "독서"]],
    ]);
    expect(done.skipped.map(({ row, reason }) => ({ row, reason }))).toEqual(seen.skipped);

    const noIds =
      '이름,부서,관심사,예산\n김민준,개발팀,"등산, 커피",50\n김민준,개발팀,영화/독서,40\n이서연,개발팀,요가,30\n';
    const namesakes = await upload(Buffer.from(noIds, "utf8"), "명단.csv");
    const apart = await preview(namesakes.uploadId);
    expect(apart.preview).toMatchObject({ people: 3, skippedCount: 0, possibleDuplicateCount: 1 });
    expect(apart.preview.possibleDuplicates).toEqual([{ rows: [2, 3], name: "김민준", department: "개발팀" }]);
    expect(apart.text).toContain('"김민준" in "개발팀" (rows 2, 3)');
    expect(apart.text).toContain("reading.mergeDuplicates: true");
    const merged = await preview(namesakes.uploadId, { mergeDuplicates: true });
    const reason = "it was merged with row 2, which has the same name and department";
    expect(merged.preview).toMatchObject({ people: 2, skipped: [{ row: 3, reason }], possibleDuplicateCount: 0 });
    const mergedJob = await startJob(client, {
      uploadId: namesakes.uploadId,
      reading: { mergeDuplicates: true },
      occasion: "생일",
      budgetPerPerson: 40,
    });
    const one = await result(mergedJob.jobId);
    expect(one.people.map((p) => [p.row, p.name])).toEqual([
      [2, "김민준"],
      [4, "이서연"],
    ]);
    expect(one.skipped).toMatchObject([{ row: 3, reason }]);
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

  it("forgets a whole upload an hour after its last use, an unfinished one ten minutes after its latest chunk", async () => {
    const bytes = cp949Of(staff(300));
    const state = await upload(bytes, "idle.csv");
    clock += HOUR - 1;
    expect((await preview(state.uploadId)).preview.people).toBe(300); // a read is activity too
    clock += HOUR;
    expect(toolError(await callTool(client, FILE_TOOL.preview, { uploadId: state.uploadId })).message).toMatch(
      /No upload .*unfinished upload is dropped 10 minutes after its latest chunk, a whole one an hour after its last use/,
    );
    const again = stateOf(await begin({ name: "idle.csv", size: bytes.length, sha256: sha256(bytes) }));
    expect(again.uploadId).not.toBe(state.uploadId);
    expect(again.received).toEqual([]);
    // begun again and again, an upload that sends nothing is gone ten minutes after it began
    clock += 10 * 60 * 1000 - 1;
    expect(stateOf(await begin({ name: "idle.csv", size: bytes.length, sha256: sha256(bytes) })).uploadId).toBe(
      again.uploadId,
    );
    clock += 1;
    expect(toolError(await putChunk(again.uploadId, bytes, 0, CHUNK)).message).toMatch(/No upload/);
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
    for (const name of [FILE_TOOL.beginUpload, FILE_TOOL.putChunk, FILE_TOOL.dropUpload, FILE_TOOL.preview]) {
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
    const result = await callTool(client, TOOL.startBulk, {
      occasion: "송년회",
      budgetPerPerson: 30_000,
      locale: "ko-KR",
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      awaitingFile: true,
      occasion: "송년회",
      budgetPerPerson: 30_000,
      locale: "ko",
      // the budget's currency, which the person's locale decides: won
      currency: "KRW",
      maxFileBytes: FILE_LIMITS.maxFileBytes,
    });
    expect(toolText(result)).toMatch(/widget now asks the person to choose their staff file/);
  });

  it("leaves the currency to the person's widget when the call neither names one nor says a locale", async () => {
    const result = await callTool(client, TOOL.startBulk, { occasion: "송년회", budgetPerPerson: 50_000 });
    expect(result.structuredContent).not.toHaveProperty("currency");
    expect(toolText(result)).not.toContain("buys no gift");
    // 60 is a budget in dollars, euros or pounds, but buys nothing in won or yen: the model is told before the file is chosen
    const sixty = await callTool(client, TOOL.startBulk, { occasion: "송년회", budgetPerPerson: 60 });
    expect(toolText(sixty)).toContain(
      "The widget reads 60 in the person's currency; in KRW or JPY it buys no gift and the start would be refused.",
    );
    const named = await callTool(client, TOOL.startBulk, { occasion: "송년회", budgetPerPerson: 50, currency: "USD" });
    expect(named.structuredContent).toMatchObject({ currency: "USD" });
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
  const beginAs = (size: number, n: number, digest = String(n % 10).repeat(64)) =>
    callTool(quotaClient, FILE_TOOL.beginUpload, { name: `q${n}.csv`, size, sha256: digest });
  const callQuota = (name: string, args: Record<string, unknown>) => callTool(quotaClient, name, args);
  const chunkOf = (uploadId: string, bytes: Buffer, index: number) => ({
    uploadId,
    index,
    data: bytes.subarray(index * CHUNK, (index + 1) * CHUNK).toString("base64"),
  });

  it("counts what uploads hold with the subject's jobs; a refusal says what frees room", async () => {
    const { jobId } = await startJob(quotaClient, { csv: employeeCsv(300), occasion: "o", budgetPerPerson: 40 });
    await callTool(quotaClient, TOOL.waitForJob, { jobId });
    const jobsKeep = (await jobStore.usage("anonymous", 0)).bytes;
    expect(jobsKeep).toBeGreaterThan(0);
    // a file of 3 MB declared, sent until the room runs out: each chunk holds its bytes, and two more ahead
    const big = Buffer.alloc(3 * LIMIT, 0x41);
    const state = stateOf(await beginAs(big.length, 1, sha256(big)));
    const other = stateOf(await beginAs(big.length, 9, "9".repeat(64))); // another file, begun and left
    expect(await uploads.bytesOf("anonymous")).toBe(2 * 2 * CHUNK);
    let refused: ReturnType<typeof toolError> | undefined;
    for (let i = 0; refused === undefined; i++) {
      const put = await callQuota(FILE_TOOL.putChunk, chunkOf(state.uploadId, big, i));
      if (put.isError) refused = toolError(put);
      else expect(jobsKeep + (await uploads.bytesOf("anonymous"))).toBeLessThanOrEqual(LIMIT);
    }
    expect(refused.code).toBe("quota_exceeded");
    expect(refused.message).toMatch(
      /^Your uploads hold \d+ KB and your analyses keep \d+ KB, and this upload needs (\d+ KB|1 MB); the limit is 1 MB\.$/,
    );
    expect(refused.hint).toMatch(/drop_file_upload .*10 minutes after its latest chunk.*delete_job/);
    // the person removes the file: its room is free again
    const dropped = await callQuota(FILE_TOOL.dropUpload, { uploadId: state.uploadId });
    expect(dropped.structuredContent).toEqual({ uploadId: state.uploadId, dropped: true });
    expect(await uploads.bytesOf("anonymous")).toBe(2 * CHUNK);
    expect((await callQuota(FILE_TOOL.dropUpload, { uploadId: state.uploadId })).structuredContent).toEqual({
      uploadId: state.uploadId,
      dropped: false,
    });
    // with no analyses kept, the refusal does not send the person to delete_job
    await callTool(quotaClient, TOOL.deleteJob, { jobId });
    const again = stateOf(await beginAs(big.length, 2, sha256(big)));
    let last = await callQuota(FILE_TOOL.putChunk, chunkOf(again.uploadId, big, 0));
    for (let i = 1; !last.isError; i++) last = await callQuota(FILE_TOOL.putChunk, chunkOf(again.uploadId, big, i));
    expect(toolError(last).hint).not.toMatch(/delete_job/);
    expect(toolError(last).message).toMatch(/^Your uploads hold \d+ KB, and this upload needs/);
    await callQuota(FILE_TOOL.dropUpload, { uploadId: again.uploadId });
    await callQuota(FILE_TOOL.dropUpload, { uploadId: other.uploadId });
    expect(await uploads.bytesOf("anonymous")).toBe(0);
  });
});

describe("a flood of empty uploads", () => {
  it("never blocks a real upload: 32 files of 16 MB begun and never sent hold 32 × 512 KB, for 10 minutes", async () => {
    let now = Date.now();
    const flooded = await startTestServer({
      jobs: createJobService({ store: createMemoryStore(), match: matchGifts }), // 512 MB stored per subject
      files: { openStore: () => createMemoryUploadStore({ now: () => now }), downloadHosts: [] },
    });
    const floodClient = await connectClient(flooded.mcpUrl);
    try {
      for (let i = 0; i < 32; i++) {
        const digest = createHash("sha256").update(`flood ${i} ${Math.random()}`).digest("hex");
        const began = await callTool(floodClient, FILE_TOOL.beginUpload, {
          name: `flood-${i}.xlsx`,
          size: FILE_LIMITS.maxFileBytes,
          sha256: digest,
        });
        expect(began.isError).toBeFalsy();
      }
      const bytes = cp949Of(staff(3_000)); // a few chunks of 256 KB
      let state = UploadStateSchema.parse(
        (
          await callTool(floodClient, FILE_TOOL.beginUpload, {
            name: "real.csv",
            size: bytes.length,
            sha256: sha256(bytes),
          })
        ).structuredContent,
      );
      for (let i = 0; i < state.chunks; i++) {
        const put = await callTool(floodClient, FILE_TOOL.putChunk, {
          uploadId: state.uploadId,
          index: i,
          data: bytes.subarray(i * state.chunkBytes, (i + 1) * state.chunkBytes).toString("base64"),
        });
        expect(put.isError, toolText(put)).toBeFalsy();
        state = UploadStateSchema.parse(put.structuredContent);
      }
      expect(state.complete).toBe(true);
      now += FILE_LIMITS.stalledAfterMs; // the flood is gone; the real file stays
      const read = await callTool(floodClient, FILE_TOOL.preview, { uploadId: state.uploadId });
      expect(StaffPreviewSchema.parse(read.structuredContent).people).toBe(3_000);
    } finally {
      await floodClient.close();
      await flooded.close();
    }
  });
});
