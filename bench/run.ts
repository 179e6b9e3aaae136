/**
 * `npm run bench [-- --quick]`: runs every benchmark, prints one table, writes bench/results.json.
 * Each figure sits beside a baseline measured in the same process, so ratios hold on a noisy machine.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { printTable, type BenchOptions, type BenchRow } from "./table.js";
import { benchReducer } from "./reducer.js";
import { benchWidget } from "./widget.js";
import { benchServer } from "./server.js";
import { benchEras } from "./eras.js";
import { benchJobs } from "./jobs.js";
import { benchDelivery } from "./delivery.js";
import { benchTaskFreshness } from "./task-freshness.js";
import { benchScale } from "./scale.js";
import { benchInstances } from "./instances.js";
import { benchInput } from "./input.js";
import { benchUploads } from "./uploads.js";
import { benchExports } from "./exports.js";
import { benchQuality } from "./quality.js";

const sections: [string, (o: BenchOptions) => Promise<BenchRow[]>][] = [
  ["reducer", benchReducer],
  ["widget", benchWidget],
  ["server", benchServer],
  ["eras", benchEras],
  ["jobs", benchJobs],
  ["delivery", benchDelivery],
  ["tasks", benchTaskFreshness],
  ["scale", benchScale],
  ["instances", benchInstances],
  ["uploads", benchUploads],
  ["exports", benchExports],
  ["input", benchInput],
  ["quality", benchQuality],
];

const options: BenchOptions = { quick: process.argv.includes("--quick") };
const only = process.argv
  .find((a) => a.startsWith("--only="))
  ?.slice(7)
  .split(",");
const rows: BenchRow[] = [];
for (const [name, run] of sections) {
  if (only && !only.includes(name)) continue;
  const t0 = performance.now();
  process.stderr.write(`bench ${name}… `);
  rows.push(...(await run(options)));
  process.stderr.write(`${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
}
printTable(rows);
const out = fileURLToPath(new URL("./results.json", import.meta.url));
writeFileSync(
  out,
  JSON.stringify({ date: new Date().toISOString(), node: process.version, quick: options.quick, rows }, null, 2),
);
console.log(`\nwrote ${out}`);
