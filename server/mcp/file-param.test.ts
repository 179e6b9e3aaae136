/**
 * ChatGPT's file parameter end to end, with this server playing ChatGPT's file service in
 * development (POST /dev/files): start_bulk_gift_analysis with a real `file` downloads it, reads it,
 * starts at once and tells the model what it understood; a file on a host the configuration does
 * not allow is refused without a request to it; a file past the size limit is refused with the
 * limit in words; a file whose columns cannot be told does not start; the empty `file` and `reading`
 * a host's form sends beside a CSV count as not given. (The downloader's redirects,
 * size cap and deadline against misbehaving hosts: server/files/download.test.ts.)
 */
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import * as z from "zod/mini";
import { FILE_LIMITS, HostFileSchema } from "../../shared/files.js";
import { GetJobResultOutput, StartBulkOutput, TOOL, WaitForJobOutput } from "../../shared/tools.js";
import { staffXlsx } from "../../test-kit/staff-files.js";
import { createMemoryUploadStore } from "../files/uploads/sqlite.js";
import { createJobService } from "../jobs/job-service.js";
import { createMemoryStore } from "../jobs/stores/memory.js";
import { matchGifts } from "../gifts/matcher.js";
import {
  callTool,
  connectClient,
  startTestServer,
  toolError,
  toolText,
  type TestServer,
} from "../../test-kit/servers/test-server.js";

let server: TestServer;
let client: Client;
beforeAll(async () => {
  server = await startTestServer({ devFiles: true });
  client = await connectClient(server.mcpUrl);
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

/** Hands `bytes` to the development file service, as a person attaching a file in ChatGPT. */
async function attach(bytes: Buffer, name: string, type = "application/octet-stream") {
  const response = await fetch(`${server.url}/dev/files`, {
    method: "POST",
    body: new Uint8Array(bytes),
    headers: { "content-type": type, "x-file-name": encodeURIComponent(name) },
  });
  expect(response.status).toBe(200);
  return HostFileSchema.parse(await response.json());
}

const workbook = async (rows: (string | number)[][]) => Buffer.from(await staffXlsx(rows));

const people = Array.from({ length: 250 }, (_, i) => [`Person ${i + 1}`, i % 2 ? "Sales" : "R&D", "coffee; books", 45]);

it("downloads the attached file, starts at once, and tells the model what it understood", async () => {
  const file = await attach(await workbook([["Full name", "Team", "Hobbies", "Budget"], ...people]), "팀 명단.xlsx");
  expect(file).toMatchObject({
    file_name: "팀 명단.xlsx",
    download_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/dev\/files\//),
  });
  const result = await callTool(client, TOOL.startBulk, { file, occasion: "year end", budgetPerPerson: 40 });
  expect(result.isError).toBeFalsy();
  const { jobId } = StartBulkOutput.parse(result.structuredContent);
  expect(toolText(result)).toMatch(/Started job/);
  expect(toolText(result)).toMatch(/250/); // the preview's text: how many people
  const waited = WaitForJobOutput.parse((await callTool(client, TOOL.waitForJob, { jobId })).structuredContent);
  expect(waited.status).toBe("completed");
  const page = GetJobResultOutput.parse(
    (await callTool(client, TOOL.getJobResult, { jobId, limit: 500 })).structuredContent,
  );
  expect(page.people.map((p) => p.name)).toEqual(people.map((p) => p[0]));
});

it("reads a file without a name by its bytes", async () => {
  const file = await attach(
    await workbook([
      ["name", "interests"],
      ["Ada", "tea"],
    ]),
    "x",
  );
  const { file_name: _, ...nameless } = file;
  const result = await callTool(client, TOOL.startBulk, { file: nameless, occasion: "o", budgetPerPerson: 40 });
  expect(toolText(result)).toMatch(/Read "file-[\w-]+\.xlsx" as an Excel workbook/);
  expect(result.isError).toBeFalsy();
});

it("refuses a file on a host it does not download from, and never asks that host", async () => {
  const requests: string[] = [];
  const elsewhere = createServer((req, res) => {
    requests.push(req.url ?? "");
    res.end("name\nAda\n");
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = elsewhere.address() as AddressInfo;
    const file = { download_url: `http://127.0.0.1:${port}/file-1`, file_id: "file-1", file_name: "s.csv" };
    const error = toolError(await callTool(client, TOOL.startBulk, { file, occasion: "o", budgetPerPerson: 40 }));
    expect(error.message).toMatch(
      /not set up to download files from chat hosts|not a host this server downloads files from/,
    );
    expect(error.hint).toMatch(/file picker/);
    const https = { ...file, download_url: "https://files.example.test/file-1" };
    expect(
      toolError(await callTool(client, TOOL.startBulk, { file: https, occasion: "o", budgetPerPerson: 40 })).hint,
    ).toMatch(/file picker/);
    expect(requests).toEqual([]);
  } finally {
    elsewhere.closeAllConnections();
    await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
  }
});

/** POSTs `body` to /dev/files with the `Host` header given (fetch would send the real one). */
function attachWithHost(host: string, body: string) {
  return new Promise<{ status: number; json: unknown }>((resolve, reject) => {
    const req = httpRequest(`${server.url}/dev/files`, {
      method: "POST",
      headers: { host, "content-type": "text/csv", "x-file-name": "s.csv" },
    });
    req.on("error", reject);
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.end(body);
  });
}

it("takes its own origin from the socket it listens on, never from the Host header", async () => {
  const requests: string[] = [];
  const other = createServer((req, res) => {
    requests.push(req.url ?? "");
    res.end("name,interests\nthe other service's private answer,x\n");
  });
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = other.address() as AddressInfo;
    const own = new URL(server.url);
    const posted = await attachWithHost(`127.0.0.1:${port}`, "name,interests\nAda,tea\n");
    expect(posted.status).toBe(200);
    const file = HostFileSchema.parse(posted.json);
    expect(new URL(file.download_url).origin).toBe(own.origin);
    const elsewhere = { ...file, download_url: `http://127.0.0.1:${port}${new URL(file.download_url).pathname}` };
    const error = toolError(
      await callTool(client, TOOL.startBulk, { file: elsewhere, occasion: "o", budgetPerPerson: 40 }),
    );
    expect(error.message).toMatch(/not a host this server downloads files from|not set up to download/);
    expect(JSON.stringify(error)).not.toMatch(/private answer/);
    expect(requests).toEqual([]);
    // the file itself, on this server's own origin, still comes down
    expect((await callTool(client, TOOL.startBulk, { file, occasion: "o", budgetPerPerson: 40 })).isError).toBeFalsy();
  } finally {
    other.closeAllConnections();
    await new Promise<void>((resolve) => other.close(() => resolve()));
  }
});

it("refuses a file past the size limit, with the limit in words", async () => {
  const file = await attach(Buffer.alloc(FILE_LIMITS.maxFileBytes + 1, 0x41), "huge.csv", "text/csv");
  const error = toolError(await callTool(client, TOOL.startBulk, { file, occasion: "o", budgetPerPerson: 40 }));
  expect(error).toMatchObject({
    code: "input_too_large",
    message: "The file is larger than 16 MB, the largest staff file this server takes.",
  });
});

it("does not start a file whose names cannot be found, and says why", async () => {
  const file = await attach(
    await workbook([
      ["x", "y"],
      [1, 2],
    ]),
    "numbers.xlsx",
  );
  const result = await callTool(client, TOOL.startBulk, { file, occasion: "o", budgetPerPerson: 40 });
  const error = toolError(result);
  expect(error.message).toMatch(/^numbers\.xlsx cannot start an analysis yet: /);
  expect(z.string().check(z.minLength(40)).safeParse(error.message).success).toBe(true);
});

it("checks the caller's job quotas before it downloads and reads the file", async () => {
  const requests: string[] = [];
  const host = createServer((req, res) => {
    requests.push(req.url ?? "");
    res.end("name,interests\nAda,tea\n");
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  const { port } = host.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const jobs = createJobService({ store: createMemoryStore(), match: matchGifts, limits: { maxStartsPerHour: 1 } });
  const limited = await startTestServer({
    jobs,
    files: { openStore: () => createMemoryUploadStore(), downloadHosts: [origin] },
  });
  const limitedClient = await connectClient(limited.mcpUrl);
  try {
    const file = { download_url: `${origin}/f.csv`, file_id: "file-1", file_name: "f.csv" };
    const first = await callTool(limitedClient, TOOL.startBulk, { file, occasion: "o", budgetPerPerson: 40 });
    expect(first.isError).toBeFalsy();
    expect(requests).toEqual(["/f.csv"]);
    const second = toolError(
      await callTool(limitedClient, TOOL.startBulk, { file, occasion: "o", budgetPerPerson: 40 }),
    );
    expect(second.code).toBe("rate_limited");
    expect(requests).toEqual(["/f.csv"]); // not downloaded again
  } finally {
    await limitedClient.close();
    await limited.close();
    host.closeAllConnections();
    await new Promise<void>((resolve) => host.close(() => resolve()));
  }
});

it("takes an allowed host name on its https port only, never on the port of another service", async () => {
  const requests: string[] = [];
  const other = createServer((req, res) => {
    requests.push(req.url ?? "");
    res.end("name,interests\nthe other service's private answer,x\n");
  });
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
  const { port } = other.address() as AddressInfo;
  const byName = await startTestServer({
    files: { openStore: () => createMemoryUploadStore(), downloadHosts: ["127.0.0.1", "localhost"] },
  });
  const byNameClient = await connectClient(byName.mcpUrl);
  try {
    for (const url of [
      `https://127.0.0.1:${port}/f.csv`,
      `http://127.0.0.1:${port}/f.csv`,
      `https://localhost:${port}/f`,
    ]) {
      const file = { download_url: url, file_id: "file-1", file_name: "f.csv" };
      const error = toolError(
        await callTool(byNameClient, TOOL.startBulk, { file, occasion: "o", budgetPerPerson: 40 }),
      );
      expect(error.message).toMatch(/not a host this server downloads files from|over https only/);
      expect(JSON.stringify(error)).not.toMatch(/private answer|wrong version|ECONN/);
      expect(JSON.stringify(error)).not.toContain(String(port));
    }
    expect(requests).toEqual([]);
  } finally {
    await byNameClient.close();
    await byName.close();
    other.closeAllConnections();
    await new Promise<void>((resolve) => other.close(() => resolve()));
  }
});

it("opens a workbook on its staff list past a guide sheet, and names the sheets when one cannot start", async () => {
  const rows = [["이름", "관심사"], ...Array.from({ length: 30 }, (_, i) => [`김민준${i}`, "커피"])];
  const guided = await attach(Buffer.from(await staffXlsx(rows, { name: "직원", before: ["안내"] })), "명단.xlsx");
  const started = await callTool(client, TOOL.startBulk, { file: guided, occasion: "연말", budgetPerPerson: 40 });
  expect(started.isError).toBeFalsy();
  expect(toolText(started)).toContain('sheet "직원" (sheets: "안내" (1 row), "직원" (31 rows))');
  // the guide named: the model is told every sheet with its rows and the header found, to name another
  const named = await callTool(client, TOOL.startBulk, {
    file: guided,
    reading: { sheet: "안내" },
    occasion: "연말",
    budgetPerPerson: 40,
  });
  const { message } = toolError(named);
  expect(message).toContain('the header has "notes"');
  expect(message).toContain('The workbook\'s sheets are "안내" (1 row), "직원" (31 rows); "안내" was read.');
});

describe("the empty objects a host's form sends beside the real input (MCPJam's)", () => {
  const rows = "name,department,interests\nAda,R&D,tea\nGrace,Sales,coffee\n";

  it("count as not given: `file: {}` and `reading: {}` beside a CSV start the job from the CSV", async () => {
    const result = await callTool(client, TOOL.startBulk, {
      csv: rows,
      file: {},
      reading: {},
      occasion: "year end",
      budgetPerPerson: 40,
    });
    expect(result.isError, toolText(result)).toBeFalsy();
    const { jobId } = StartBulkOutput.parse(result.structuredContent);
    const waited = WaitForJobOutput.parse((await callTool(client, TOOL.waitForJob, { jobId })).structuredContent);
    expect(waited.view).toMatchObject({ status: "completed", resultCount: 2 });
  });

  it("count as not given alone too: with no list, the widget asks for the file", async () => {
    const result = await callTool(client, TOOL.startBulk, {
      file: {},
      reading: {},
      occasion: "o",
      budgetPerPerson: 40,
    });
    expect(result.structuredContent).toMatchObject({ awaitingFile: true });
  });

  it("with the empty list the form sends for `employees`, no list at all: the widget asks for the file", async () => {
    // MCPJam's form for a person who filled in only the occasion and the budget
    const result = await callTool(client, TOOL.startBulk, {
      employees: [],
      file: {},
      reading: {},
      occasion: "o",
      budgetPerPerson: 40,
    });
    expect(result.structuredContent).toMatchObject({ awaitingFile: true });
  });

  it("are still checked when not empty", async () => {
    const result = await callTool(client, TOOL.startBulk, {
      csv: rows,
      file: { file_id: 3 },
      occasion: "o",
      budgetPerPerson: 40,
    });
    expect(toolError(result)).toMatchObject({ code: "invalid_arguments", message: expect.stringContaining("file") });
  });
});
