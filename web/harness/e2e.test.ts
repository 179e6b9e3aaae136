/**
 * End to end in a real browser: the real app on an ephemeral port serves the built harness at `/`,
 * the harness plays ChatGPT's side with the built widget in a sandboxed iframe, and a bulk analysis
 * of the sample CSV must end in the same widget view with faults (duplicates ×3, shuffling, a
 * dropped reply) as without. Needs `npm run build` first (dist/harness and dist/widget).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "csv-parse/sync";
import { chromium, type Browser, type Page } from "playwright-core";
import { startTestServer, type TestServer } from "../../server/test-support.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";

const root = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const HARNESS_DIR = root("dist/harness");
const WIDGET_HTML = root("dist/widget/index.html");
const SCREENSHOT = root("test-artifacts/harness-e2e.png");
const SAMPLE_NAMES = (
  parse(readFileSync(fileURLToPath(new URL("./sample-employees.csv", import.meta.url))), { columns: true }) as {
    name: string;
  }[]
).map((r) => r.name);
const JOB_TIMEOUT = 60_000;

let server: TestServer;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  for (const built of [`${HARNESS_DIR}/index.html`, WIDGET_HTML]) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` before this test`);
  }
  server = await startTestServer({ staticDir: HARNESS_DIR, widgetHtmlPath: WIDGET_HTML, devPace: true });
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  page = await browser.newPage({ viewport: { width: 1680, height: 1050 } });
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await page.goto(`${server.url}/`);
  await page.getByRole("status").filter({ hasText: "session" }).waitFor({ timeout: 15_000 });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
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
  const people = widget.locator(".gg-rows li");
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
    mkdirSync(root("test-artifacts"), { recursive: true });
    await page.screenshot({ path: root("test-artifacts/harness-e2e-failure.png") }).catch(() => undefined);
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

        const calls = log.locator('[data-method="tools/call"][data-kind="request"]');
        const replies = log.locator('[data-method="tools/call"][data-kind="result"]');
        expect(await calls.count()).toBeGreaterThanOrEqual(4);
        expect(await replies.count()).toBeGreaterThanOrEqual(4);
        await expect
          .poll(() => log.locator('.log-row:has(.log-tool:text-is("get_job_events"))').count())
          .toBeGreaterThan(0);
        expect(await replies.filter({ hasText: "start_bulk_gift_analysis" }).count()).toBe(2);
        expect(await log.locator('[data-method="resources/read"][data-kind="result"]').count()).toBeGreaterThanOrEqual(
          2,
        );

        // Expanding a reply shows its raw JSON as text; a second click folds it again.
        const startReply = replies.filter({ hasText: "start_bulk_gift_analysis" }).last().getByRole("button");
        await startReply.click();
        await expect.poll(() => log.locator(".log-json").first().textContent()).toContain('"jobId"');
        await startReply.click();
        expect(await log.locator(".log-json").count()).toBe(0);

        expect(pageErrors).toEqual([]);
        // The picture worth keeping: the finished job at the top of the widget, the log beside it.
        await page.frameLocator('iframe[title="Widget"]').getByRole("progressbar").scrollIntoViewIfNeeded();
        mkdirSync(root("test-artifacts"), { recursive: true });
        await page.screenshot({ path: SCREENSHOT });
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

        // what crossed each bridge, by peer and method, for the record
        const rows = await page
          .locator(".log-list .log-row")
          .evaluateAll((els) =>
            els.map(
              (e) => `${e.getAttribute("data-peer")} ${e.getAttribute("data-kind")} ${e.getAttribute("data-method")}`,
            ),
          );
        const counts: Record<string, number> = {};
        for (const r of rows) counts[r] = (counts[r] ?? 0) + 1;
        mkdirSync(root("test-artifacts"), { recursive: true });
        writeFileSync(root(`test-artifacts/messages-${kind}.json`), `${JSON.stringify(counts, null, 2)}\n`);
        if (kind === "mcp-apps") {
          for (const m of [
            "view request ui/initialize",
            "view result ui/initialize",
            "view notification ui/notifications/initialized",
            "view notification ui/notifications/tool-input",
            "view notification ui/notifications/tool-result",
            "view notification ui/notifications/host-context-changed",
            "view notification ui/notifications/size-changed",
            "view request tools/call",
            "view result tools/call",
          ]) {
            expect(counts[m] ?? 0, m).toBeGreaterThan(0);
          }
          // back inline, the frame takes the height the widget reported, not the host's maximum
          await page.getByRole("radio", { name: "Inline" }).click();
          await expect
            .poll(() => frame().evaluate((el) => el.getBoundingClientRect().height), { timeout: JOB_TIMEOUT })
            .toBeLessThan(560);
        } else {
          expect(Object.keys(counts).some((k) => k.startsWith("view "))).toBe(false);
        }
        expect(pageErrors).toEqual([]);
        await page.screenshot({ path: root(`test-artifacts/harness-${kind}.png`) });
      }),
    3 * JOB_TIMEOUT,
  );
});
