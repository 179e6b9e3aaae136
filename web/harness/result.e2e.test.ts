/**
 * The result as a person uses it, in a real browser against the real server, in both kinds of host:
 * a job of 50,000 people followed to the fullscreen table, where a person is found by name, one
 * department is filtered and the table sorted by spend; another job canceled after confirming,
 * keeping the people composed so far; the server restarted mid-job, with the harness opening a new
 * session by itself and the widget picking its job up again; and every text and control of the
 * widget checked for contrast (axe-core for text, our own check for controls) in both themes.
 * Needs `npm run build` first (dist/harness and dist/widget).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import axe from "axe-core";
import { parse } from "csv-parse/sync";
import type { Browser, Frame, Page } from "playwright-core";
import { matchGifts } from "../../server/gifts/matcher.js";
import { pauseAtPace } from "../../server/dev-pace.js";
import { createJobService } from "../../server/jobs/job-service.js";
import { createSqliteStore } from "../../server/jobs/stores/sqlite.js";
import type { TestServer } from "../../test-kit/servers/test-server.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import {
  ARTIFACTS,
  launchChromium,
  requireBuild,
  startHarnessServer,
  widgetFrame,
  withFailureShot,
} from "../../test-kit/browser.js";
const JOB_TIMEOUT = 90_000;
const ROWS = 50_000;
const HOSTS = [
  ["ChatGPT (window.openai)", "openai"],
  ["MCP Apps (AppBridge)", "mcp-apps"],
] as const;

let server: TestServer;
let browser: Browser;
let dir: string;
let csvPath: string;
/** A list of 10,000 people: at a pace of a second between slices, each stage lasts seconds. */
let smallPath: string;
let people: { name: string; department: string }[];

beforeAll(async () => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), "giftgenius-result-"));
  csvPath = join(dir, `employees-${ROWS}.csv`);
  const csv = employeeCsv(ROWS, { seed: 7 });
  writeFileSync(csvPath, csv);
  people = parse<(typeof people)[number]>(csv, { columns: true });
  smallPath = join(dir, "employees-10000.csv");
  writeFileSync(smallPath, employeeCsv(10_000, { seed: 8 }));
  server = await startHarnessServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh page with the harness connected to `at`, playing `host`. */
async function openHarness(at: TestServer, host: string) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${at.url}/`);
  await page.getByRole("status").filter({ hasText: "session" }).waitFor({ timeout: 15_000 });
  await page.getByRole("radio", { name: host }).click();
  return { page, errors };
}

const barValue = (widget: Frame) =>
  widget
    .locator('[role="progressbar"]')
    .first()
    .getAttribute("aria-valuenow", { timeout: 1_000 })
    .then(Number)
    .catch(() => -1);

/** Uploads a list, chooses `pace` (ms between slices), starts, and returns the new widget. */
async function startJob(page: Page, [path, rows]: [string, string], pace: number): Promise<Frame> {
  await page.getByLabel("Upload…").setInputFiles(path);
  await expect.poll(() => page.getByLabel("Uploaded CSV").textContent()).toContain(`${rows} rows`);
  await page.getByLabel(/^Pace/).selectOption(String(pace));
  const before = page.mainFrame().childFrames()[0];
  await page.getByRole("button", { name: "Start bulk analysis" }).click();
  return widgetFrame(page, before, JOB_TIMEOUT);
}

/** The names in the table's rows now in the page, top to bottom, with their spend. */
const tableRows = (widget: Frame) =>
  widget.locator(".gg-rows .gg-row").evaluateAll((rows) =>
    rows.map((r) => ({
      name: r.querySelector(".gg-c-name")?.textContent ?? "",
      department: r.querySelector(".gg-c-department")?.textContent ?? "",
      spend: Number((r.querySelector(".gg-c-spend")?.textContent ?? "").replace(/[^0-9.]/g, "") || NaN),
    })),
  );

/** Text contrast by axe-core's own rule, in the frame as rendered now: the violations, described. */
async function textContrastViolations(widget: Frame): Promise<string[]> {
  if (!(await widget.evaluate(() => "axe" in window))) await widget.evaluate(axe.source);
  return widget.evaluate(async () => {
    const run = (window as unknown as { axe: typeof axe }).axe.run;
    const result = await run(document, { runOnly: { type: "rule", values: ["color-contrast"] } });
    return result.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary}`));
  });
}

/**
 * Controls against what is behind them (WCAG 1.4.11, 3:1): each enabled button, field and the
 * bar's fill, by its background or, where that is see-through or the same as behind it, its border.
 * A control drawn as text alone (a link-like button) is judged by its text, which axe checks.
 */
async function controlContrastViolations(widget: Frame): Promise<string[]> {
  return widget.evaluate(() => {
    const rgba = (css: string) => {
      const [r, g, b, a = 1] = (css.match(/[\d.]+/g) ?? ["0", "0", "0", "0"]).map(Number);
      return { r, g, b, a };
    };
    const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const lin = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const ratio = (x: string, y: string) => {
      const [a, b] = [luminance(rgba(x)), luminance(rgba(y))].sort((p, q) => q - p);
      return (a + 0.05) / (b + 0.05);
    };
    const behind = (el: Element | null): string => {
      for (let e = el; e; e = e.parentElement) {
        const bg = getComputedStyle(e).backgroundColor;
        if (rgba(bg).a > 0.5) return bg;
      }
      return getComputedStyle(document.documentElement).backgroundColor;
    };
    const found: string[] = [];
    const controls = document.querySelectorAll<HTMLElement>("button, input, select, .gg-bar-fill");
    for (const el of controls) {
      if ((el as HTMLButtonElement).disabled || el.getClientRects().length === 0) continue;
      const style = getComputedStyle(el);
      const back = behind(el.parentElement);
      const fill = rgba(style.backgroundColor).a > 0.5 ? style.backgroundColor : null;
      const border = parseFloat(style.borderTopWidth) > 0 ? style.borderTopColor : null;
      const edges = [fill, border].filter((c): c is string => c !== null);
      if (edges.length === 0) continue; // text alone
      const best = Math.max(...edges.map((c) => ratio(c, back)));
      if (best < 3)
        found.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent?.trim()}": ${best.toFixed(2)}:1`);
    }
    return found;
  });
}

/** Both contrast checks in both themes, the widget as it is now. */
async function checkContrast(page: Page, widget: Frame, what: string) {
  for (const theme of ["Light", "Dark"]) {
    await page.getByRole("radio", { name: theme }).click();
    await expect.poll(() => widget.locator(".gg-root").getAttribute("data-theme")).toBe(theme.toLowerCase());
    await page.waitForTimeout(200); // colours ease over 150 ms
    expect(await textContrastViolations(widget), `${what}, ${theme}: text`).toEqual([]);
    expect(await controlContrastViolations(widget), `${what}, ${theme}: controls`).toEqual([]);
  }
  await page.getByRole("radio", { name: "Light" }).click();
}

describe("the result as a person uses it", () => {
  it.each(HOSTS)(
    "in the %s host: a job of 50,000 people to the fullscreen table: found by name, one department, sorted by spend; contrast in both themes",
    async (host, kind) => {
      const { page, errors } = await openHarness(server, host);
      await withFailureShot(page, `result-table-${kind}`, async () => {
        const widget = await startJob(page, [csvPath, "50,000"], 0);
        await expect.poll(() => barValue(widget), { timeout: JOB_TIMEOUT, interval: 200 }).toBe(100);
        await checkContrast(page, widget, "the finished card, inline");

        await widget.getByRole("button", { name: "Open the full result" }).click();
        const table = widget.getByRole("table", { name: "People and their top picks" });
        await expect.poll(() => widget.locator(".gg-count").textContent(), { timeout: JOB_TIMEOUT }).toMatch(/50,000/);
        // only the rows in view are in the page
        expect(await table.locator(".gg-row").count()).toBeLessThan(100);

        // a person deep in the list, by part of their name in another case
        const wanted = people[41_234];
        const sameName = people.filter((p) => p.name === wanted.name).length;
        await widget.getByRole("searchbox", { name: "Search by name" }).fill(wanted.name.toUpperCase());
        await expect.poll(async () => (await tableRows(widget)).length).toBe(sameName);
        expect((await tableRows(widget)).map((r) => r.name)).toContain(wanted.name);
        await widget.getByRole("searchbox", { name: "Search by name" }).fill("");

        // one department, sorted by spend, largest first
        const department = wanted.department;
        const inDepartment = people.filter((p) => p.department === department).length;
        await widget.getByRole("combobox", { name: "Department" }).selectOption(department);
        await expect
          .poll(() => widget.locator(".gg-count").textContent())
          .toContain(inDepartment.toLocaleString("en-US"));
        await widget.getByRole("columnheader", { name: "Spend" }).getByRole("button").click();
        await expect.poll(async () => (await tableRows(widget)).length).toBeGreaterThan(10);
        const sorted = await tableRows(widget);
        expect(new Set(sorted.map((r) => r.department))).toEqual(new Set([department]));
        const spends = sorted.map((r) => r.spend).filter((s) => !Number.isNaN(s));
        expect(spends.length).toBeGreaterThan(10);
        expect(spends).toEqual([...spends].sort((a, b) => b - a));
        // the same heading again turns it round
        await widget.getByRole("columnheader", { name: "Spend" }).getByRole("button").click();
        await expect
          .poll(async () => (await tableRows(widget)).map((r) => r.spend)[0])
          .toBeLessThanOrEqual(spends.at(-1)!);
        await checkContrast(page, widget, "the fullscreen table");
        await page.screenshot({ path: `${ARTIFACTS}/result-table-${kind}.png` });
        // on a phone the headings sit over two-line rows: a sort bar, which says so
        expect(await widget.locator(".gg-sort-label").isVisible()).toBe(false);
        await page.setViewportSize({ width: 390, height: 844 });
        await expect.poll(() => widget.locator(".gg-sort-label").isVisible()).toBe(true);
        expect(await widget.locator(".gg-sort-label").textContent()).toBe("Sort by");
        expect(errors).toEqual([]);
      });
      await page.close();
    },
    4 * JOB_TIMEOUT,
  );

  it.each(HOSTS)(
    "in the %s host: Cancel asks first, then keeps the people composed so far and offers to start again",
    async (host, kind) => {
      const { page, errors } = await openHarness(server, host);
      await withFailureShot(page, `cancel-${kind}`, async () => {
        // 50,000 people at 150 ms between slices: the result is composed over some seconds
        const widget = await startJob(page, [csvPath, "50,000"], 150);
        // asked, and not canceled
        await widget.getByRole("button", { name: "Cancel" }).click();
        await widget.getByRole("button", { name: "Keep going" }).click();
        expect(await widget.locator(".gg-outcome").count()).toBe(0);
        await page.getByRole("radio", { name: "Fullscreen" }).click();
        // the table fills in while the job composes
        await expect
          .poll(() => widget.locator(".gg-rows .gg-row").count(), { timeout: JOB_TIMEOUT, interval: 100 })
          .toBeGreaterThan(0);
        await widget.getByRole("button", { name: "Cancel" }).click();
        await widget.getByRole("button", { name: "Yes, cancel" }).click();
        await expect
          .poll(() => widget.locator(".gg-outcome").textContent(), { timeout: JOB_TIMEOUT })
          .toMatch(/canceled/i);
        expect(await barValue(widget)).toBeLessThan(100);
        const kept = Number(
          ((await widget.getByText(/Ready before it was canceled/).textContent()) ?? "").replace(/[^0-9]/g, ""),
        );
        expect(kept).toBeGreaterThan(0);
        expect(kept).toBeLessThan(ROWS);
        await expect.poll(async () => (await tableRows(widget)).length).toBeGreaterThan(0);
        await checkContrast(page, widget, "a canceled job, fullscreen");
        await page.screenshot({ path: `${ARTIFACTS}/canceled-${kind}.png` });

        // a new job of the same list, at the same pace: seen running, its bar back near the start
        await widget.getByRole("button", { name: "Start again" }).click();
        await expect.poll(() => widget.locator(".gg-outcome").count(), { timeout: JOB_TIMEOUT }).toBe(0);
        await expect.poll(() => widget.getByRole("button", { name: "Cancel" }).count()).toBe(1);
        expect(await barValue(widget)).toBeLessThan(50);
        await widget.getByRole("button", { name: "Cancel" }).click();
        await widget.getByRole("button", { name: "Yes, cancel" }).click();
        await expect
          .poll(() => widget.locator(".gg-outcome").textContent(), { timeout: JOB_TIMEOUT })
          .toMatch(/canceled/i);
        expect(errors).toEqual([]);
      });
      await page.close();
    },
    5 * JOB_TIMEOUT,
  );
});

describe("a server restarted mid-job", () => {
  it.each(HOSTS)(
    "in the %s host: the harness opens a new session by itself and the widget picks its job up again",
    async (host, kind) => {
      const db = join(dir, `restart-${kind}.db`);
      const jobsAt = () =>
        createJobService({ store: createSqliteStore(db), match: matchGifts, beforeSlice: pauseAtPace });
      let first: TestServer | undefined = await startHarnessServer({ jobs: jobsAt() });
      const port = Number(new URL(first.url).port);
      const { page, errors } = await openHarness(first, host);
      let second: TestServer | undefined;
      try {
        await withFailureShot(page, `restart-${kind}`, async () => {
          const widget = await startJob(page, [smallPath, "10,000"], 500);
          await expect.poll(() => barValue(widget), { timeout: JOB_TIMEOUT, interval: 100 }).toBeGreaterThan(5);
          await checkContrast(page, widget, "a running job, inline");
          const session = await page.getByRole("status").filter({ hasText: "session" }).textContent();

          await first!.close();
          first = undefined;
          second = await startHarnessServer({ jobs: jobsAt() }, port);

          // the job was cut off by the shutdown: the widget reads that from the job's own events,
          // through a session the harness opened again by itself, and offers to run it again
          await expect
            .poll(
              () =>
                widget
                  .locator(".gg-outcome")
                  .textContent()
                  .catch(() => ""),
              { timeout: JOB_TIMEOUT },
            )
            .toMatch(/failed/i);
          await expect
            .poll(() => page.getByRole("status").filter({ hasText: "session" }).textContent())
            .not.toBe(session);
          expect(await widget.locator(".gg-error").textContent()).toMatch(/shut down|restart/i);
          expect(await widget.locator("body").textContent()).not.toMatch(/jsonrpc|"code"|-32\d\d\d/);
          await page.screenshot({ path: `${ARTIFACTS}/restarted-${kind}.png` });

          // run again on the new server, at the pace it had, to its end
          await page.getByLabel(/^Pace/).selectOption("0"); // the form's pace is not what a retry takes
          await widget.getByRole("button", { name: "Try again" }).click();
          await expect.poll(() => widget.locator(".gg-outcome").count(), { timeout: JOB_TIMEOUT }).toBe(0);
          const progress: number[] = [];
          await expect
            .poll(
              async () => {
                const now = await barValue(widget);
                if (now >= 0 && now !== progress.at(-1)) progress.push(now);
                return now;
              },
              { timeout: 2 * JOB_TIMEOUT, interval: 100 },
            )
            .toBe(100);
          expect(progress.filter((p) => p > 0 && p < 100).length).toBeGreaterThan(3); // watched, not a jump
          expect(errors).toEqual([]);
        });
      } finally {
        await page.close();
        await first?.close();
        await second?.close();
      }
    },
    5 * JOB_TIMEOUT,
  );
});
