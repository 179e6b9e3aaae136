/**
 * axe-core with every rule it has short of WCAG's AAA level (WCAG 2.0 to 2.2 A and AA, best
 * practices and the experimental rules too, not only contrast; AAA's 7:1 text would be another
 * palette, and AAA is not the level the widget is held to) over the widget as it is in a real Chromium against the real server, in light and dark and in
 * English and Korean: the running card, the finished card with the table in fullscreen, the file
 * picker and a file's preview. None may find a violation. Needs `npm run build` first.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import axe from "axe-core";
import type { Frame, Page } from "playwright-core";
import { mountFrom, setUpBrowserTests, withFailureShot } from "../../test-kit/browser.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";

const JOB_TIMEOUT = 60_000;
const run = setUpBrowserTests();
let dir: string;
let listPath: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "giftgenius-axe-"));
  listPath = join(dir, "employees.csv");
  writeFileSync(listPath, employeeCsv(2_000, { seed: 35 }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every violation of every axe rule short of AAA in the frame as it is now, described. */
async function violations(widget: Frame): Promise<string[]> {
  if (!(await widget.evaluate(() => "axe" in window))) await widget.evaluate(axe.source);
  return widget.evaluate(async () => {
    const { run, getRules } = (window as unknown as { axe: typeof axe }).axe;
    const every = Object.fromEntries(
      getRules().map((r) => [r.ruleId, { enabled: !r.tags.some((tag) => /^wcag2\d*aaa$/.test(tag)) }]),
    );
    const result = await run(document, { rules: every, resultTypes: ["violations"] });
    return result.violations.flatMap((v) =>
      v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}: ${n.failureSummary?.replace(/\s+/g, " ")}`),
    );
  });
}

/** axe over the widget in both themes and both languages; back to light and English after. */
async function checkAll(page: Page, widget: Frame, what: string) {
  for (const [locale, lang] of [
    ["en-US", "en"],
    ["ko-KR", "ko"],
  ]) {
    await page.getByRole("radio", { name: locale }).click();
    await expect.poll(() => widget.locator(".gg-root").getAttribute("lang")).toBe(locale);
    for (const theme of ["Light", "Dark"]) {
      await page.getByRole("radio", { name: theme }).click();
      await expect.poll(() => widget.locator(".gg-root").getAttribute("data-theme")).toBe(theme.toLowerCase());
      expect(await violations(widget), `${what}, ${theme}, ${lang}`).toEqual([]);
    }
  }
  await page.getByRole("radio", { name: "Light" }).click();
  await page.getByRole("radio", { name: "en-US" }).click();
}

/** Chooses the list in the harness form at `pace` ms between slices and starts the analysis. */
async function startJob(page: Page, pace: number): Promise<Frame> {
  await page.getByLabel("Upload…").setInputFiles(listPath);
  await expect.poll(() => page.getByLabel("Uploaded CSV").textContent()).toContain("2,000 rows");
  await page.getByLabel(/^Pace/).selectOption(String(pace));
  return mountFrom(page, "Start bulk analysis");
}

describe("axe-core, every rule, both themes, both languages", () => {
  it(
    "finds nothing on the running card",
    async () => {
      const { page, errors } = await run.openHarness({ viewport: { width: 1280, height: 900 } });
      await withFailureShot(page, "axe-running", async () => {
        await page.getByRole("radio", { name: "MCP Apps (AppBridge)" }).click();
        const widget = await startJob(page, 3_000);
        await widget.locator(".gg-current").waitFor({ timeout: JOB_TIMEOUT });
        await checkAll(page, widget, "the running card");
        // still running: it was the running card that was checked
        expect(await widget.locator(".gg-status").textContent()).toBe("Running");
        await widget.getByRole("button", { name: "Cancel" }).click();
        expect(await violations(widget), "asking to cancel").toEqual([]);
        await widget.getByRole("button", { name: "Yes, cancel" }).click();
        expect(errors).toEqual([]);
      });
      await page.close();
    },
    3 * JOB_TIMEOUT,
  );

  it(
    "finds nothing on the finished card, inline and with the table in fullscreen",
    async () => {
      const { page, errors } = await run.openHarness({ viewport: { width: 1280, height: 900 } });
      await withFailureShot(page, "axe-finished", async () => {
        await page.getByRole("radio", { name: "ChatGPT (window.openai)" }).click();
        const widget = await startJob(page, 0);
        await widget.locator(".gg-summary").waitFor({ timeout: JOB_TIMEOUT });
        await checkAll(page, widget, "the finished card");
        await widget.getByRole("button", { name: "Open the full result" }).click();
        await widget.getByText("2,000 people", { exact: true }).waitFor({ timeout: JOB_TIMEOUT });
        await widget.getByRole("columnheader", { name: "Spend" }).getByRole("button").click();
        await checkAll(page, widget, "the table in fullscreen");
        expect(errors).toEqual([]);
      });
      await page.close();
    },
    3 * JOB_TIMEOUT,
  );

  it(
    "finds nothing on the file picker and a file's preview",
    async () => {
      const { page, errors } = await run.openHarness({ viewport: { width: 1280, height: 900 } });
      await withFailureShot(page, "axe-files", async () => {
        await page.getByRole("radio", { name: "MCP Apps (AppBridge)" }).click();
        const widget = await mountFrom(page, "Ask for the file in the widget");
        await widget.getByText("Choose a file or drop it here").waitFor({ timeout: JOB_TIMEOUT });
        await checkAll(page, widget, "the file picker");
        await widget.locator('input[type="file"]').setInputFiles(listPath);
        await widget.getByText("2,000 rows: 2,000 people, 0 skipped").waitFor({ timeout: JOB_TIMEOUT });
        await checkAll(page, widget, "the preview");
        expect(errors).toEqual([]);
      });
      await page.close();
    },
    3 * JOB_TIMEOUT,
  );
});
