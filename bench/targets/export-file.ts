/**
 * Benchmark child: exports one finished job of the SQLite store at EXPORT_DB (EXPORT_JOB, as
 * EXPORT_FORMAT, or only reads its people with "read") in a process of its own, so that its peak RSS is the export's alone: once cold for
 * the RSS it grows by, once more for the time and the longest event-loop stall. Prints one JSON line.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { exportFile, measureFile } from "../../server/files/export/export-file.js";
import { matchGifts } from "../../server/gifts/matcher.js";
import { createJobService } from "../../server/jobs/job-service.js";
import { createSqliteStore } from "../../server/jobs/stores/sqlite.js";

const { EXPORT_DB = "", EXPORT_JOB = "", EXPORT_FORMAT } = process.env;
/** "read" reads the people alone, writing nothing: the baseline. */
const format = EXPORT_FORMAT === "xlsx" || EXPORT_FORMAT === "read" ? EXPORT_FORMAT : "csv";
const jobs = createJobService({ store: createSqliteStore(EXPORT_DB), match: matchGifts });
const gc = () => (globalThis as { gc?: () => void }).gc?.();

async function write(): Promise<number> {
  const opened = await jobs.openResult(EXPORT_JOB, { subject: "bench" });
  if (!opened.ok) throw new Error(opened.error.message);
  if (format !== "read") return (await measureFile(exportFile(opened.value, "picks", format).body(), 0)).size;
  let people = 0;
  for await (const chunk of opened.value.people()) people += chunk.length;
  return people;
}

gc();
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
const size = await write();
clearInterval(sampler);

gc();
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
const t0 = performance.now();
await write();
const ms = performance.now() - t0;
delay.disable();

console.log(JSON.stringify({ size, rssGrowth: peak - before, ms, stallMs: delay.max / 1e6 }));
await jobs.close();
