/**
 * `npm run screenshots`: every state of the widget as a person sees it, in the harness against the
 * real server: a job running (inline, then fullscreen with its table filling in), canceled, and a
 * finished one (the short card inline, the table in fullscreen), each light and dark, in English
 * and Korean, at 1440 and 390 px. Written to test-artifacts/screens/, a file per picture, named by
 * width, language, state and theme. Needs `npm run build` first.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Frame, Page } from "playwright-core";
import { employeeCsv } from "../test-kit/employee-csv.js";
import { ARTIFACTS, launchChromium, requireBuild, startHarnessServer } from "../test-kit/browser.js";

const OUT = join(ARTIFACTS, "screens");
const WIDTHS = [1440, 390];
const LOCALES = ["en-US", "ko-KR"];
const WAIT = { timeout: 240_000 };

requireBuild();
mkdirSync(OUT, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), "giftgenius-screens-"));
// at the slowest pace, 5,000 people take a minute or so to reach their table, then compose for long
// enough to be drawn filling in and canceled while they do
const list = join(dir, "employees-5000.csv");
writeFileSync(list, employeeCsv(5_000, { seed: 8 }));
const server = await startHarnessServer();
const browser = await launchChromium();
const taken: string[] = [];

/** The mounted widget's frame. */
async function widgetOf(page: Page, previous?: Frame): Promise<Frame> {
  for (;;) {
    const frame = page
      .mainFrame()
      .childFrames()
      .find((f) => f !== previous && !f.isDetached());
    if (frame && (await frame.locator(".gg-root").count()) > 0) return frame;
    await page.waitForTimeout(100);
  }
}

/** The widget's frame as it is now, in both themes. */
async function shoot(page: Page, widget: Frame, name: string) {
  const frame = page.locator('iframe[title="Widget"]');
  for (const theme of ["Light", "Dark"]) {
    await page.getByRole("radio", { name: theme }).click();
    await widget.locator(`.gg-root[data-theme="${theme.toLowerCase()}"]`).waitFor(WAIT);
    // colours ease and the frame settles at its height; a frame scrolled into view paints first
    await page.waitForTimeout(250);
    await frame.scrollIntoViewIfNeeded();
    await page.waitForTimeout(250);
    const path = join(OUT, `${name}-${theme.toLowerCase()}.png`);
    await frame.screenshot({ path });
    taken.push(path);
  }
  await page.getByRole("radio", { name: "Light" }).click();
}

try {
  for (const width of WIDTHS) {
    for (const locale of LOCALES) {
      const page = await browser.newPage({ viewport: { width, height: 900 }, locale });
      const at = (state: string) => `${width}-${locale.slice(0, 2)}-${state}`;
      await page.goto(`${server.url}/`);
      await page.getByRole("status").filter({ hasText: "session" }).waitFor(WAIT);
      await page.getByRole("radio", { name: locale }).click();

      // a job at three seconds between slices: seen running inline, then filling its table in fullscreen
      await page.getByLabel("Upload…").setInputFiles(list);
      await page.getByLabel(/^Pace/).selectOption("3000");
      await page.getByRole("button", { name: "Start bulk analysis" }).click();
      let widget = await widgetOf(page);
      await widget.locator('[role="progressbar"][aria-valuenow]').waitFor(WAIT);
      await page.waitForTimeout(6_000);
      await shoot(page, widget, at("running"));
      await page.getByRole("radio", { name: "Fullscreen" }).click();
      await widget.locator(".gg-rows .gg-row").first().waitFor(WAIT);
      await shoot(page, widget, at("composing-fullscreen"));
      await widget
        .locator("button")
        .filter({ hasText: /^(Cancel|취소)$/ })
        .click();
      await widget
        .locator("button")
        .filter({ hasText: /^(Yes, cancel|취소하기)$/ })
        .click();
      await widget.locator(".gg-outcome").waitFor(WAIT);
      await shoot(page, widget, at("canceled-fullscreen"));
      await page.getByRole("radio", { name: "Inline" }).click();
      await shoot(page, widget, at("canceled"));

      // the sample at full speed: the short card inline, then the whole result in fullscreen
      await page.getByLabel(/^Pace/).selectOption("0");
      await page.getByRole("button", { name: "Load sample CSV" }).click();
      const previous = widget;
      await page.getByRole("button", { name: "Start bulk analysis" }).click();
      widget = await widgetOf(page, previous);
      await widget.locator('[role="progressbar"][aria-valuenow="100"]').waitFor(WAIT);
      await widget.locator(".gg-summary").waitFor(WAIT);
      await shoot(page, widget, at("completed"));
      await page.getByRole("radio", { name: "Fullscreen" }).click();
      await widget.locator(".gg-rows .gg-row").first().waitFor(WAIT);
      await shoot(page, widget, at("completed-fullscreen"));
      await page.screenshot({ path: join(OUT, `${at("harness")}.png`) });
      await page.context().close();
    }
  }
  console.log(`${taken.length} screenshots in ${OUT}`);
} finally {
  await browser.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
