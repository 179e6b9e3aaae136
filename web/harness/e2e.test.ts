/**
 * End to end in a real browser: the real app on an ephemeral port serves the built harness at `/`,
 * the harness plays ChatGPT's side with the built widget in a sandboxed iframe, and a bulk analysis
 * of the sample CSV must end in the same widget view with faults (duplicates ×3, shuffling, a
 * dropped reply) as without. Needs `npm run build` first (dist/harness and dist/widget).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "csv-parse/sync";
import type { Page } from "playwright-core";
import { ARTIFACTS, setUpBrowserTests } from "../../test-kit/browser.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";

const SAMPLE_NAMES = parse<{ name: string }>(
  readFileSync(fileURLToPath(new URL("./sample-employees.csv", import.meta.url))),
  { columns: true },
).map((r) => r.name);
const JOB_TIMEOUT = 60_000;

const run = setUpBrowserTests();
let page: Page;
let pageErrors: string[];

beforeAll(async () => {
  ({ page, errors: pageErrors } = await run.openHarness({ viewport: { width: 1680, height: 1050 } }));
});

const frame = () => page.locator('iframe[title="Widget"]');

/** Starts the bulk analysis from the form; returns the widget of this call once it is mounted. */
async function startFromForm() {
  const previous = (await frame().count()) > 0 ? await frame().getAttribute("data-mount") : null;
  await page.getByRole("button", { name: "Start bulk analysis" }).click();
  // Wait for the widget of this call, not the one still showing the previous result.
  await expect
    .poll(
      () =>
        frame()
          .getAttribute("data-mount")
          .catch(() => null),
      { timeout: JOB_TIMEOUT },
    )
    .not.toBe(previous);
  return page.frameLocator(`iframe[data-mount="${await frame().getAttribute("data-mount")}"]`);
}

/** Starts the bulk analysis from the form and waits for the new widget to show the finished job. */
async function runBulkAnalysis(): Promise<{ stages: string[]; people: string[] }> {
  const widget = await startFromForm();
  const bar = widget.getByRole("progressbar");
  await expect
    .poll(() => bar.getAttribute("aria-valuenow").catch(() => null), { timeout: JOB_TIMEOUT, interval: 100 })
    .toBe("100");
  // inline, the short card's button opens the whole result (the stages and the table of people);
  // a widget mounted after that starts in fullscreen already
  const open = widget.getByRole("button", { name: "Open the full result" });
  if (await open.isVisible()) await open.click();
  const stages = widget.locator(".gg-stage");
  await expect
    .poll(async () => (await stages.evaluateAll((els) => els.map((e) => e.getAttribute("data-state")))).join(","), {
      timeout: JOB_TIMEOUT,
    })
    .toMatch(/^done(,done)+$/);
  const people = widget.locator('.gg-rows [role="row"]');
  await expect.poll(() => people.count(), { timeout: JOB_TIMEOUT, interval: 200 }).toBe(SAMPLE_NAMES.length);
  return {
    stages: await stages.evaluateAll((els) => els.map((e) => `${e.textContent}|${e.getAttribute("data-state")}`)),
    people: await people.allInnerTexts(),
  };
}

/** On failure, what the page looked like is the quickest clue. */
async function screenshotOnFailure(body: () => Promise<void>) {
  try {
    await body();
  } catch (error) {
    await page.screenshot({ path: `${ARTIFACTS}/harness-e2e-failure.png` }).catch(() => undefined);
    throw error;
  }
}

let clean: { stages: string[]; people: string[] };

describe("the harness against the real server", () => {
  it(
    "shows the same finished bulk analysis with and without faults, and logs every call",
    () =>
      screenshotOnFailure(async () => {
        await page.getByRole("button", { name: "Load sample CSV" }).click();
        await expect
          .poll(() => page.getByRole("textbox", { name: /Employees CSV/ }).inputValue())
          .toContain("Zoë Müller");

        clean = await runBulkAnalysis();
        for (const name of SAMPLE_NAMES) expect(clean.people.some((text) => text.includes(name))).toBe(true);

        await page.getByLabel("Duplicates ×").fill("3");
        await page.getByLabel("Shuffle within and across batches").check();
        await page.getByLabel(/Drop the next reply/).check();
        const faulted = await runBulkAnalysis();

        expect(faulted).toEqual(clean);
        // The one-shot drop fired (and switched itself off); the log shows what the faults did.
        await expect.poll(() => page.getByLabel(/Drop the next reply/).isChecked()).toBe(false);
        const log = page.locator(".log-list");
        expect(await log.locator('[data-method="fault/drop"]').count()).toBe(1);
        expect(await log.locator('[data-method="fault/batch"]').count()).toBeGreaterThan(0);

        // Each call is one line, opened by its request, with its reply on it: no reply stands alone.
        const calls = log.locator('.log-row[data-method="tools/call"][data-kind="request"]');
        const answered = log.locator('.log-row[data-method="tools/call"][data-kind="request"][data-status="ok"]');
        expect(await calls.count()).toBeGreaterThanOrEqual(4);
        expect(await answered.count()).toBeGreaterThanOrEqual(4);
        expect(await log.locator('.log-row[data-kind="result"], .log-row[data-kind="error"]').count()).toBe(0);
        const ids = await calls.locator(".log-id").allTextContents();
        expect(new Set(ids).size).toBe(ids.length);
        await expect
          .poll(() => log.locator('.log-row:has(.log-tool:text-is("get_job_events"))').count())
          .toBeGreaterThan(0);
        const starts = answered.filter({ hasText: "start_bulk_gift_analysis" });
        expect(await starts.count()).toBe(2);
        expect(
          await log.locator('.log-row[data-method="resources/read"][data-kind="request"][data-status="ok"]').count(),
        ).toBeGreaterThanOrEqual(2);

        // Opening a call shows its request and its reply as raw JSON text; a second click folds it again.
        const start = starts.last();
        await start.getByRole("button").click();
        await expect
          .poll(() => start.locator(".log-json").textContent())
          .toContain('"name": "start_bulk_gift_analysis"');
        expect((await start.locator(".log-part-json").allTextContents()).join("\n")).toContain('"jobId"');
        await start.getByRole("button").click();
        expect(await log.locator(".log-json, .log-part-json").count()).toBe(0);

        // The method filter keeps the lines of the method chosen, every one of them, and nothing else.
        const methodFilter = page
          .getByRole("region", { name: "JSON-RPC log" })
          .getByRole("combobox", { name: "Method", exact: true });
        const methods = () =>
          log.locator(".log-row").evaluateAll((els) => els.map((e) => e.getAttribute("data-method")));
        expect(new Set(await methods()).size).toBeGreaterThan(1);
        const callLines = await calls.count();
        await methodFilter.selectOption("tools/call");
        await expect.poll(async () => [...new Set(await methods())]).toEqual(["tools/call"]);
        expect((await methods()).length).toBeGreaterThanOrEqual(callLines);
        await methodFilter.selectOption("");
        await expect.poll(async () => new Set(await methods()).size).toBeGreaterThan(1);

        expect(pageErrors).toEqual([]);
        // The picture worth keeping: the finished job at the top of the widget, the log beside it.
        await page.frameLocator('iframe[title="Widget"]').getByRole("progressbar").scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${ARTIFACTS}/harness-e2e.png` });
      }),
    3 * JOB_TIMEOUT,
  );

  it.each([
    ["ChatGPT (window.openai)", "openai"],
    ["MCP Apps (AppBridge)", "mcp-apps"],
  ])(
    "in the %s host: follows a job to the same result, changes theme, resumes a job mid-way without going back, and cancels it",
    (label, kind) =>
      screenshotOnFailure(async () => {
        await page.getByLabel("Duplicates ×").fill("1");
        await page.getByLabel("Shuffle within and across batches").uncheck();
        await page.getByRole("radio", { name: label }).click();
        await page.getByRole("button", { name: "Clear" }).click();
        await page.getByRole("button", { name: "Load sample CSV" }).click();
        expect(await runBulkAnalysis()).toEqual(clean);

        const widget = page.frameLocator('iframe[title="Widget"]');
        await page.getByRole("radio", { name: "Dark" }).click();
        await expect.poll(() => widget.locator(".gg-root").getAttribute("data-theme")).toBe("dark");
        await page.getByRole("radio", { name: "Light" }).click();
        await expect.poll(() => widget.locator(".gg-root").getAttribute("data-theme")).toBe("light");

        // a job long enough to cancel while it runs, uploaded as a file (held as a chip, not in the text area)
        await page.getByLabel("Upload…").setInputFiles({
          name: "employees-150k.csv",
          mimeType: "text/csv",
          buffer: Buffer.from(employeeCsv(150_000)),
        });
        await expect.poll(() => page.getByLabel("Uploaded CSV").textContent()).toContain("150,000 rows");
        // slow enough that the job outlasts a widget reload even on a busy machine
        await page.getByLabel(/^Pace/).selectOption("500");
        const running = await startFromForm();
        // at a watchable pace the bar is seen strictly between 0 and 100, never going down
        const seen: number[] = [];
        await expect
          .poll(
            async () => {
              const now = Number(await running.getByRole("progressbar").getAttribute("aria-valuenow"));
              if (now > 0 && now < 100 && now !== seen.at(-1)) seen.push(now);
              return seen.length;
            },
            { timeout: JOB_TIMEOUT, interval: 50 },
          )
          .toBeGreaterThanOrEqual(3);
        expect(seen).toEqual([...seen].sort((a, b) => a - b));

        // resume: the widget shown again mid-job starts where it was, never back at 0 %
        const before = Number(await running.getByRole("progressbar").getAttribute("aria-valuenow"));
        const mountBefore = await frame().getAttribute("data-mount");
        await page.getByRole("button", { name: /Reload widget/ }).click();
        await expect.poll(() => frame().getAttribute("data-mount")).not.toBe(mountBefore);
        const resumed = page.frameLocator(`iframe[data-mount="${await frame().getAttribute("data-mount")}"]`);
        const shown: number[] = [];
        await expect
          .poll(
            async () => {
              const bar = resumed.getByRole("progressbar");
              if ((await bar.count()) > 0) shown.push(Number(await bar.getAttribute("aria-valuenow")));
              return shown.length;
            },
            { timeout: JOB_TIMEOUT, interval: 20 },
          )
          .toBeGreaterThanOrEqual(2);
        expect(shown[0]).toBeGreaterThanOrEqual(before);
        expect(shown).toEqual([...shown].sort((a, b) => a - b));

        await resumed.getByRole("button", { name: "Cancel" }).click();
        await resumed.getByRole("button", { name: "Yes, cancel" }).click();
        await expect
          .poll(() => resumed.locator(".gg-outcome").textContent(), { timeout: JOB_TIMEOUT })
          .toMatch(/Canceled/i);
        const stopped = Number(await resumed.getByRole("progressbar").getAttribute("aria-valuenow"));
        expect(stopped).toBeLessThan(100);
        await page.getByLabel("Uploaded CSV").getByRole("button", { name: "Remove" }).click();
        await page.getByLabel(/^Pace/).selectOption("0");

        // what crossed each bridge, a line a call (its reply on it), by peer, method and end, for the record
        const rows = await page.locator(".log-list .log-row").evaluateAll((els) =>
          els.map((e) =>
            ["data-peer", "data-kind", "data-method", "data-status"]
              .map((name) => e.getAttribute(name))
              .filter((part) => part !== null)
              .join(" "),
          ),
        );
        const counts: Record<string, number> = {};
        for (const r of rows) counts[r] = (counts[r] ?? 0) + 1;
        writeFileSync(`${ARTIFACTS}/messages-${kind}.json`, `${JSON.stringify(counts, null, 2)}\n`);
        if (kind === "mcp-apps") {
          // the widget's requests are answered: each line holds the request and its reply
          for (const m of [
            "view request ui/initialize ok",
            "view notification ui/notifications/initialized",
            "view notification ui/notifications/tool-input",
            "view notification ui/notifications/tool-result",
            "view notification ui/notifications/host-context-changed",
            "view notification ui/notifications/size-changed",
            "view request tools/call ok",
          ]) {
            expect(counts[m] ?? 0, m).toBeGreaterThan(0);
          }
          // a widget's tool call, opened: widget → host, host → server, and both replies back
          const viaHost = page
            .locator('.log-list .log-row[data-peer="view"][data-method="tools/call"][data-status="ok"]')
            .first();
          await viaHost.getByRole("button").click();
          expect(
            await viaHost
              .locator(".log-part")
              .evaluateAll((els) => els.map((e) => `${e.getAttribute("data-peer")} ${e.getAttribute("data-kind")}`)),
          ).toEqual(["view request", "server request", "server result", "view result"]);
          expect((await viaHost.locator(".log-part-json").allTextContents()).join("\n")).toContain('"result"');
          await viaHost.getByRole("button").click();
          // back inline, the frame takes the height the widget reported, not the host's maximum
          await page.getByRole("radio", { name: "Inline" }).click();
          await expect
            .poll(() => frame().evaluate((el) => el.getBoundingClientRect().height), { timeout: JOB_TIMEOUT })
            .toBeLessThan(560);
        } else {
          expect(Object.keys(counts).some((k) => k.startsWith("view "))).toBe(false);
        }
        expect(pageErrors).toEqual([]);
        await page.screenshot({ path: `${ARTIFACTS}/harness-${kind}.png` });
      }),
    3 * JOB_TIMEOUT,
  );
});
