/**
 * Staff files in through the widget's path: upload throughput in MB/s for a 4 MB file sent with
 * `begin_file_upload` and `put_file_chunk` (256 KB chunks, base64, one at a time as the widget
 * sends them) to the real app over HTTP with its SQLite upload store, beside the same bytes POSTed
 * raw to the development file service in the same run (the ceiling: no base64, no JSON-RPC, no
 * store); and the process's peak RSS and heap while five 8 MB files are uploaded at once, and the
 * heap still held once they are in (after a forced GC, under `npm run bench`'s --expose-gc).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request, type Agent } from "node:http";
import { serve } from "@hono/node-server";
import { FILE_TOOL, UploadStateSchema } from "../shared/files.js";
import { createApp } from "../server/app.js";
import { createSqliteUploadStore } from "../server/files/uploads/sqlite.js";
import { matchGifts } from "../server/gifts/matcher.js";
import { createJobService } from "../server/jobs/job-service.js";
import { createSqliteStore } from "../server/jobs/stores/sqlite.js";
import { employeeCsv } from "../test-kit/employee-csv.js";
import { callTool, createAgent } from "./mcp-http.js";
import { median, row, type BenchOptions, type BenchRow } from "./table.js";

const MB = 1024 * 1024;

/** A staff CSV of exactly `bytes` bytes, its first line numbered by `seed` so that no two are the same file. */
function staffFile(bytes: number, seed: number): Buffer {
  const block = Buffer.from(employeeCsv(2_000, { seed }));
  const file = Buffer.alloc(bytes, block);
  file.write(`name,department,interests,budget #${seed}\n`);
  return file;
}

/** Uploads `bytes` as the widget does: begin, then every chunk in turn; throws unless the upload ends complete. */
async function upload(url: URL, bytes: Buffer, name: string, agent: Agent): Promise<void> {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const begun = await callTool(
    url,
    FILE_TOOL.beginUpload,
    { name, size: bytes.length, sha256 },
    UploadStateSchema,
    agent,
  );
  let state = begun;
  for (let i = 0; i < begun.chunks; i++) {
    const data = bytes.subarray(i * begun.chunkBytes, (i + 1) * begun.chunkBytes).toString("base64");
    state = await callTool(
      url,
      FILE_TOOL.putChunk,
      { uploadId: begun.uploadId, index: i, data },
      UploadStateSchema,
      agent,
    );
  }
  if (!state.complete)
    throw new Error(`upload ${begun.uploadId} ended with ${state.received.length} of ${state.chunks} chunks`);
}

/** The bytes POSTed raw on the same kind of socket as the tool calls; throws unless the file was kept. */
function postFile(url: URL, bytes: Buffer, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", agent, headers: { "content-length": bytes.length, "x-file-name": "s.csv" } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const answer = Buffer.concat(chunks).toString("utf8");
          if (res.statusCode === 200 && answer.includes("download_url")) resolve();
          else reject(new Error(`POST /dev/files answered ${res.statusCode}: ${answer.slice(0, 200)}`));
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(bytes);
  });
}

export async function benchUploads({ quick, smoke }: BenchOptions): Promise<BenchRow[]> {
  const small = smoke ? MB / 2 : 4 * MB;
  const large = smoke ? MB : 8 * MB;
  const runs = smoke ? 1 : quick ? 3 : 5;
  const dir = mkdtempSync(join(tmpdir(), "giftgenius-uploads-"));
  const jobs = createJobService({ store: createSqliteStore(join(dir, "jobs.db")), match: matchGifts });
  const { app, close } = createApp({
    jobs,
    devFiles: true,
    files: { openStore: () => createSqliteUploadStore(join(dir, "uploads.sqlite")), downloadHosts: [] },
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  const origin = `http://127.0.0.1:${address.port}`;
  const url = new URL(`${origin}/mcp`);
  const agent = createAgent(8);
  const viaTool: number[] = [];
  const raw: number[] = [];
  let peakRss = 0;
  let peakHeap = 0;
  let rssBefore: number;
  let heapBefore: number;
  let heapAfter: number;
  try {
    const files = Array.from({ length: 5 }, (_, i) => staffFile(large, 100 + i));
    (globalThis as { gc?: () => void }).gc?.();
    ({ rss: rssBefore, heapUsed: heapBefore } = process.memoryUsage());
    const sample = () => {
      const { rss, heapUsed } = process.memoryUsage();
      peakRss = Math.max(peakRss, rss);
      peakHeap = Math.max(peakHeap, heapUsed);
    };
    const sampler = setInterval(sample, 5);
    try {
      await Promise.all(files.map((bytes, i) => upload(url, bytes, `big-${i}.csv`, agent)));
    } finally {
      clearInterval(sampler);
      sample();
    }
    (globalThis as { gc?: () => void }).gc?.();
    heapAfter = process.memoryUsage().heapUsed;
    for (let run = 0; run < runs; run++) {
      const bytes = staffFile(small, run + 1);
      let t0 = performance.now();
      await upload(url, bytes, `staff-${run}.csv`, agent);
      viaTool.push(small / MB / ((performance.now() - t0) / 1000));
      t0 = performance.now();
      await postFile(new URL(`${origin}/dev/files`), bytes, agent);
      raw.push(small / MB / ((performance.now() - t0) / 1000));
    }
  } finally {
    agent.destroy();
    await close();
    await jobs.close();
    if ("closeAllConnections" in server) server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  }
  const section = "uploads";
  const throughput = median(viaTool);
  const rssGrowth = (peakRss - rssBefore) / MB;
  const heapGrowth = (peakHeap - heapBefore) / MB;
  const sent = (5 * large) / MB;
  return [
    row({
      section,
      metric: `upload through ${FILE_TOOL.putChunk}, ${small / MB} MB file`,
      value: throughput,
      unit: "MB/s",
      baseline: median(raw),
      baselineName: "raw POST of the bytes",
      target: "≥ 4 MB/s (a 4 MB file in a second)",
      met: throughput >= 4,
    }),
    row({
      section,
      metric: `peak RSS, 5 × ${large / MB} MB uploads at once`,
      value: peakRss / MB,
      unit: "MB",
      baseline: rssBefore / MB,
      baselineName: "RSS before them",
      target: `< 4× the ${sent} MB sent above it`,
      met: rssGrowth < 4 * sent,
    }),
    row({
      section,
      metric: `peak heap growth, 5 × ${large / MB} MB uploads at once`,
      value: heapGrowth,
      unit: "MB",
      baseline: sent,
      baselineName: "MB sent",
      target: "< 4× the MB sent (garbage between collections)",
      met: heapGrowth < 4 * sent,
    }),
    row({
      section,
      metric: `heap kept once the 5 uploads are in (after a GC)`,
      value: (heapAfter - heapBefore) / MB,
      unit: "MB",
      baseline: sent,
      baselineName: "MB sent",
      target: "< 5 MB: chunks are in the store, not in memory",
      met: (heapAfter - heapBefore) / MB < 5,
    }),
  ];
}
