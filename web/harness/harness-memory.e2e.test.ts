/**
 * The harness remembers, in a real browser: the host, protocol, globals, fault switches and the
 * bulk form (with its chosen file) survive a page reload, so do the recent jobs; the widget that
 * was on screen comes back on its job and follows it; a recent job opens again, and one the server
 * no longer knows opens on the widget's own error while the harness works on. And at 390 px, the
 * widget in fullscreen leaves the top bar visible and usable. Needs `npm run build` first
 * (dist/harness and dist/widget), like the other browser tests.
 */
import { readFileSync } from "node:fs";
import type { BrowserContextOptions, Page } from "playwright-core";
import { PACE_META_KEY } from "./session.js";
import { setUpBrowserTests } from "../../test-kit/browser.js";
const SAMPLE = readFileSync(new URL("./sample-employees.csv", import.meta.url));
const JOB_TIMEOUT = 60_000;
const ANONYMOUS = { subject: "anonymous" };

const run = setUpBrowserTests();

/** A fresh page (its own localStorage) with the harness connected, in a session or stateless. */
const openHarness = (options: BrowserContextOptions) => run.openHarness({ ...options, connected: /session|stateless/ });
const radio = (page: Page, group: string, name: string) =>
  page.getByRole("radiogroup", { name: group }).getByRole("radio", { name });
const bulkForm = (page: Page) => page.getByRole("form", { name: "Bulk gift analysis" });
const recentJobs = (page: Page) => page.getByRole("region", { name: "Recent jobs" }).locator("li");
const widget = (page: Page) => page.frameLocator('iframe[title="Widget"]');
const mounted = (page: Page) => page.locator('iframe[title="Widget"]').getAttribute("data-mount");

/** Waits for a widget other than the one mounted `before`, and for its bar at 100. */
async function finishedWidget(page: Page, before: string | null) {
  await expect.poll(() => mounted(page).catch(() => null), { timeout: JOB_TIMEOUT }).not.toBe(before);
  await expect
    .poll(
      () =>
        widget(page)
          .getByRole("progressbar")
          .getAttribute("aria-valuenow", { timeout: 1_000 })
          .catch(() => null),
      {
        timeout: JOB_TIMEOUT,
      },
    )
    .toBe("100");
}

/** The JSON the inspector shows for `tab`. */
async function inspect(page: Page, tab: string) {
  await page.getByRole("tab", { name: tab }).click();
  return page.getByTestId(`inspector-${tab}`).textContent();
}

describe("the harness across a page reload", () => {
  it(
    "keeps its settings, the file and the recent jobs, shows the job it followed again, and opens a recent job",
    async () => {
      const { page, errors } = await openHarness({ viewport: { width: 1440, height: 900 } });
      await radio(page, "Protocol", "2026-07-28").click();
      await page.getByRole("status").filter({ hasText: "2026-07-28" }).waitFor({ timeout: 15_000 });
      await radio(page, "Host", "MCP Apps (AppBridge)").click();
      await radio(page, "Theme", "Dark").click();
      await radio(page, "Locale", "ko-KR").click();
      await page.getByLabel("Duplicates ×").fill("2");
      await page.getByLabel("Shuffle within and across batches").check();
      const form = bulkForm(page);
      await form.getByLabel("Occasion").fill("Farewell party");
      await form.getByLabel("Per person").fill("75");
      await form.getByLabel(/^Pace/).selectOption({ label: "Very slow" });
      await form.getByRole("button", { name: "Load sample CSV" }).click();
      await form
        .getByLabel("Upload…")
        .setInputFiles({ name: "staff-sample.csv", mimeType: "text/csv", buffer: SAMPLE });
      await expect.poll(() => form.getByLabel("Uploaded CSV").textContent()).toContain("25 rows");
      await form.getByRole("button", { name: "Start bulk analysis" }).click();
      await expect.poll(() => recentJobs(page).count(), { timeout: JOB_TIMEOUT }).toBe(1);
      const first = (await recentJobs(page).first().getAttribute("data-job"))!;
      await widget(page).getByRole("progressbar").waitFor({ timeout: JOB_TIMEOUT });
      // the start went at the pace chosen
      const start = page
        .locator('.log-row[data-method="tools/call"][data-kind="request"]')
        .filter({ hasText: "start_bulk_gift_analysis" });
      await start.getByRole("button").click();
      expect(await start.locator(".log-json").textContent()).toContain(`"${PACE_META_KEY}": 3000`);
      await radio(page, "Display", "PiP").click();

      await page.reload();
      await page.getByRole("status").filter({ hasText: "stateless" }).waitFor({ timeout: 15_000 });
      for (const [group, name] of [
        ["Protocol", "2026-07-28"],
        ["Host", "MCP Apps (AppBridge)"],
        ["Theme", "Dark"],
        ["Display", "PiP"],
        ["Locale", "ko-KR"],
      ]) {
        expect(await radio(page, group, name).getAttribute("aria-checked"), name).toBe("true");
      }
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
      expect(await page.getByLabel("Duplicates ×").inputValue()).toBe("2");
      expect(await page.getByLabel("Shuffle within and across batches").isChecked()).toBe(true);
      expect(await form.getByLabel("Occasion").inputValue()).toBe("Farewell party");
      expect(await form.getByLabel("Per person").inputValue()).toBe("75");
      expect(await form.getByLabel(/^Pace/).inputValue()).toBe("3000");
      const chip = await form.getByLabel("Uploaded CSV").textContent();
      expect(chip).toContain("staff-sample.csv");
      expect(chip).toContain("25 rows");
      expect(chip).not.toContain("choose it again");
      expect(await recentJobs(page).first().getAttribute("data-job")).toBe(first);
      expect(await recentJobs(page).first().textContent()).toContain("Farewell party");
      // the widget is back on its job and follows it to the end
      await finishedWidget(page, null);
      expect(await inspect(page, "toolOutput")).toContain(first);
      await radio(page, "Display", "Inline").click();

      // the typed sample is still behind the file
      await form.getByLabel("Uploaded CSV").getByRole("button", { name: "Remove" }).click();
      expect(await form.getByRole("textbox", { name: /Employees CSV/ }).inputValue()).toBe(SAMPLE.toString("utf8"));
      await form.getByLabel(/^Pace/).selectOption({ label: "Full speed" });
      let before = await mounted(page);
      await form.getByRole("button", { name: "Start bulk analysis" }).click();
      await finishedWidget(page, before);
      const second = (await recentJobs(page).first().getAttribute("data-job"))!;
      expect(await recentJobs(page).evaluateAll((els) => els.map((e) => e.getAttribute("data-job")))).toEqual([
        second,
        first,
      ]);

      // opened again: a fresh widget on the first job, which it shows finished
      before = await mounted(page);
      await page.getByRole("button", { name: `Open ${first}` }).click();
      await finishedWidget(page, before);
      expect(await inspect(page, "toolOutput")).toContain(first);

      // a job the server no longer knows: the widget's own error, and the harness works on
      expect((await run.server.jobs.delete({ jobId: second }, ANONYMOUS)).ok).toBe(true);
      before = await mounted(page);
      await page.getByRole("button", { name: `Open ${second}` }).click();
      await expect.poll(() => mounted(page)).not.toBe(before);
      await widget(page).locator(".gg-error").waitFor({ timeout: JOB_TIMEOUT });
      await expect
        .poll(() => page.getByRole("region", { name: "Controls" }).getByRole("alert").textContent())
        .toContain(second);
      before = await mounted(page);
      await page.getByRole("button", { name: `Open ${first}` }).click();
      await finishedWidget(page, before);
      expect(errors).toEqual([]);
      await page.context().close();
    },
    4 * JOB_TIMEOUT,
  );
});

describe("fullscreen on a phone", () => {
  it(
    "at 390 px leaves the top bar visible and clickable",
    async () => {
      const { page, errors } = await openHarness({ viewport: { width: 390, height: 844 } });
      const form = bulkForm(page);
      await form.getByRole("button", { name: "Load sample CSV" }).click();
      await form.getByRole("button", { name: "Start bulk analysis" }).click();
      await finishedWidget(page, null);
      await radio(page, "Display", "Fullscreen").click();
      await page.locator(".widget-shell.fullscreen").waitFor();

      const bar = (await page.locator(".top-bar").boundingBox())!;
      const shell = (await page.locator(".widget-shell").boundingBox())!;
      expect(bar.y).toBeGreaterThanOrEqual(0);
      expect(shell.y).toBeGreaterThanOrEqual(bar.y + bar.height - 1);
      expect(shell.y + shell.height).toBeLessThanOrEqual(844 + 1);
      expect(shell.width).toBeGreaterThanOrEqual(389);
      // what is under the Inline switch is the switch itself, not the widget
      const inline = radio(page, "Display", "Inline");
      expect(
        await inline.evaluate((el) => {
          const r = el.getBoundingClientRect();
          return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === el;
        }),
      ).toBe(true);
      await inline.click();
      await page.locator(".widget-shell.inline").waitFor();
      expect(await page.getByRole("region", { name: "Controls" }).isVisible()).toBe(true);
      expect(errors).toEqual([]);
      await page.context().close();
    },
    2 * JOB_TIMEOUT,
  );
});
