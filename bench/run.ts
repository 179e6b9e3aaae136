/**
 * `npm run bench [-- --quick]`: runs every benchmark, prints one table, writes bench/results.json.
 * Each figure sits beside a baseline measured in the same process, so ratios hold on a noisy machine.
 * A section that fails becomes one row saying why, the others still run, and results.json is written
 * with the machine's load average before and after (the exit code is then 1).
 */
import { writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { printTable, runSections, type BenchOptions, type Section } from "./table.js";
import { benchReducer } from "./reducer.js";
import { benchWidget } from "./widget.js";
import { benchServer } from "./server.js";
import { benchEras } from "./eras.js";
import { benchJobs } from "./jobs.js";
import { benchEta } from "./eta.js";
import { benchDelivery } from "./delivery.js";
import { benchTaskFreshness } from "./task-freshness.js";
import { benchScale } from "./scale.js";
import { benchInstances } from "./instances.js";
import { benchInput } from "./input.js";
import { benchUploads } from "./uploads.js";
import { benchExports } from "./exports.js";
import { benchQuality } from "./quality.js";

const loadAverage = () => loadavg().map((n) => Math.round(n * 100) / 100);
const loadBefore = loadAverage();

const sections: Section[] = [
  ["reducer", benchReducer],
  ["widget", benchWidget],
  ["server", benchServer],
  ["eras", benchEras],
  ["jobs", benchJobs],
  ["eta", benchEta],
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
const chosen = sections.filter(([name]) => !only || only.includes(name));
const { rows, failed } = await runSections(chosen, options, (text) => process.stderr.write(text));
printTable(rows);
const out = fileURLToPath(new URL("./results.json", import.meta.url));
writeFileSync(
  out,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      cpus: availableParallelism(),
      loadAverage: { before: loadBefore, after: loadAverage() },
      quick: options.quick,
      only: only ?? null,
      failed,
      rows,
    },
    null,
    2,
  ),
);
console.log(`\nwrote ${out}`);
if (failed.length > 0) {
  console.error(`sections that failed: ${failed.join(", ")}`);
  process.exitCode = 1;
}
