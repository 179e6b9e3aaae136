/**
 * Smoke test of the benchmarks: each section runs on tiny inputs, so its work checks (gifts and
 * events really answered, jobs really completed, every event delivered) run and its rows are
 * well formed. The figures themselves mean nothing at this size and are not looked at.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { benchDelivery } from "./delivery.js";
import { benchEta } from "./eta.js";
import { benchInput } from "./input.js";
import { benchInstances } from "./instances.js";
import { benchJobs } from "./jobs.js";
import { benchReducer } from "./reducer.js";
import { benchScale } from "./scale.js";
import { benchServer } from "./server.js";
import { runSections, type BenchRow } from "./table.js";
import { benchWidget } from "./widget.js";

const smoke = { quick: true, smoke: true };

function expectRows(rows: BenchRow[], section: string, count: number): void {
  expect(rows).toHaveLength(count);
  for (const r of rows) {
    expect(r.section).toBe(section);
    expect(r.metric).not.toBe("");
    expect(Number.isFinite(r.value)).toBe(true);
    expect(r.baseline === null || Number.isFinite(r.baseline)).toBe(true);
    expect(r.ratio === null || Number.isFinite(r.ratio)).toBe(true);
    if (r.baseline !== null) expect(r.baselineName).not.toBe("");
    expect(r.target).not.toBe("");
    expect([true, false, null]).toContain(r.met);
  }
  expect(new Set(rows.map((r) => r.metric)).size).toBe(rows.length);
}

describe("npm run bench, on tiny inputs", () => {
  it("reducer: every job reduced to completed", async () => {
    // the retained-heap figures need a forced GC, which `npm run bench` gets from --expose-gc
    setFlagsFromString("--expose-gc");
    Object.assign(globalThis, { gc: runInNewContext("gc") });
    expectRows(await benchReducer(smoke), "reducer", 4);
  });

  it("a section that fails is its error row, and the sections after it still run", async () => {
    const ok = { section: "b", metric: "m", value: 1, unit: "", baseline: null, ratio: null, baselineName: "" };
    const { rows, failed } = await runSections(
      [
        ["a", () => Promise.reject(new Error("port in use\nat line 2"))],
        ["b", () => Promise.resolve([{ ...ok, target: "–", met: null }])],
      ],
      smoke,
    );
    expect(failed).toEqual(["a"]);
    expect(rows.map((r) => [r.section, r.metric, r.met])).toEqual([
      ["a", "error: port in use", false],
      ["b", "m", null],
    ]);
  });

  it("widget: built self-contained, beside the React floor and within its budget", async () => {
    expectRows(await benchWidget(smoke), "widget", 2);
  }, 120_000);

  it("server: three targets answer real gifts and events under load, and so does ours observed and not", async () => {
    const rows = await benchServer(smoke);
    // and where /proc tells a process's CPU, the server's CPU per request beside each req/s row
    expectRows(rows, "server", process.platform === "linux" ? 22 : 16);
    const costs = ["logs + metrics", "logs + metrics + traces (every request)", "logs + metrics + traces (1 in 10)"];
    expect(rows.filter((r) => r.target === "within 10 %").map((r) => r.metric)).toEqual(
      ["suggest_gifts", "get_job_events"].flatMap((tool) => costs.map((what) => `${tool} req/s, ${what} on`)),
    );
    expect(rows.filter((r) => r.metric.endsWith("bad answers")).map((r) => r.value)).toEqual([0, 0]);
  }, 120_000); // seven server processes started and warmed up

  it("jobs: a bulk job completes with every row, and the parser reads them all", async () => {
    const rows = await benchJobs(smoke);
    expectRows(rows, "jobs", 5);
    expect(rows.find((r) => r.metric === "progress events per job")?.met).toBe(true);
  });

  it("eta: jobs from CSV, .xlsx and a Korean team's workbook, alone and beside another, run to their end and their ETAs are judged", async () => {
    const rows = await benchEta(smoke);
    expectRows(rows, "eta", 12);
    // the smallest jobs end before any ETA can be read: judged as nothing, neither met nor missed
    expect(rows.filter((r) => r.metric.startsWith("ETAs within 25 %: 1,000 rows")).map((r) => r.met)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it("input: every file read whole, the crafted workbooks leaving no temporary byte", async () => {
    const rows = await benchInput(smoke);
    expectRows(rows, "input", 28);
    expect(rows.filter((r) => r.metric.includes("temp bytes left")).map((r) => r.value)).toEqual([0, 0, 0]);
  });

  it("delivery: both clients receive every event of the job", async () => {
    expectRows(await benchDelivery(smoke), "delivery", 2);
  });

  it("scale: every watcher follows its job to the end without errors", async () => {
    const rows = await benchScale(smoke);
    expectRows(rows, "scale", 4);
    expect(rows.find((r) => r.metric === "errors")?.value).toBe(0);
  });

  it("instances: jobs started on one instance are followed to their end on another, on Redis and on SQLite", async () => {
    const rows = await benchInstances(smoke);
    expectRows(rows, "instances", 7);
    expect(rows.find((r) => r.metric === "errors")?.value).toBe(0);
  });
});
