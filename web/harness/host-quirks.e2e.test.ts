/**
 * Hosts as they are, played by the harness's quirk switches in a real browser against the real
 * server, in both kinds of host: with "Drop isError" (MCPJam's tool replies say `isError: false`
 * whatever the server said), a preview the server refuses (the list is longer than this server
 * takes) still shows the server's own sentence; with "Empty objects" (MCPJam's form sends
 * `file: {}` and `reading: {}` beside the real input), a start from the harness's form runs to
 * the end. Needs `npm run build` first.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Frame, Page } from "playwright-core";
import { matchGifts } from "../../server/gifts/matcher.js";
import { createJobService } from "../../server/jobs/job-service.js";
import { createMemoryStore } from "../../server/jobs/stores/memory.js";
import { mountFrom, setUpBrowserTests, withFailureShot } from "../../test-kit/browser.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";

const JOB_TIMEOUT = 60_000;
/** This server takes lists of up to 1,000 rows: a list of 2,000 is refused at its preview. */
const MAX_ROWS = 1_000;
const HOSTS = [
  ["ChatGPT (window.openai)", "openai"],
  ["MCP Apps (AppBridge)", "mcp-apps"],
] as const;
/** Counting stops past the limit: "The file has 1,001 rows; …". */
const REFUSAL = /^The file has [\d,]+ rows; one analysis takes at most 1,000\./;

const run = setUpBrowserTests({
  jobs: createJobService({ store: createMemoryStore(), match: matchGifts, limits: { maxRows: MAX_ROWS } }),
});
let dir: string;
let longList: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "giftgenius-quirks-"));
  longList = join(dir, "staff-2000.csv");
  writeFileSync(longList, employeeCsv(2 * MAX_ROWS, { seed: 36 }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Picks the long list in a new widget's picker; returns the refusal's text as the widget shows it. */
async function refusedPreview(page: Page): Promise<string> {
  const widget: Frame = await mountFrom(page, "Ask for the file in the widget");
  await widget.getByText("Choose a file or drop it here").waitFor({ timeout: JOB_TIMEOUT });
  await widget.locator('input[type="file"]').setInputFiles(longList);
  const error = widget.locator(".gg-error").first();
  await error.waitFor({ timeout: JOB_TIMEOUT });
  return (await error.textContent()) ?? "";
}

describe("the harness's quirk switches", () => {
  it.each(HOSTS)(
    "in the %s host, with isError dropped: a refused preview still shows the server's sentence",
    async (host, kind) => {
      const { page, errors } = await run.openHarness({ viewport: { width: 1280, height: 900 } });
      await withFailureShot(page, `quirk-is-error-${kind}`, async () => {
        await page.getByRole("radio", { name: host }).click();
        // as the server said it, isError true
        expect(await refusedPreview(page)).toMatch(REFUSAL);
        // as MCPJam hands it over, isError false: the error is still in the reply's structured content
        await page.getByLabel(/^Drop isError/).check();
        expect(await refusedPreview(page)).toMatch(REFUSAL);
        expect(await page.locator('.log-list [data-method="fault/isError"]').count()).toBeGreaterThan(0);
        await page.getByLabel(/^Drop isError/).uncheck();
        expect(errors).toEqual([]);
      });
      await page.close();
    },
    2 * JOB_TIMEOUT,
  );

  it.each(HOSTS)(
    "in the %s host, with empty objects beside the input: a start from the form runs to the end",
    async (host, kind) => {
      const { page, errors } = await run.openHarness({ viewport: { width: 1280, height: 900 } });
      await withFailureShot(page, `quirk-empty-objects-${kind}`, async () => {
        await page.getByRole("radio", { name: host }).click();
        await page.getByLabel(/^Empty objects/).check();
        await page.getByRole("button", { name: "Load sample CSV" }).click();
        const widget = await mountFrom(page, "Start bulk analysis");
        // the call went as MCPJam's form sends it
        await page.getByRole("tab", { name: "toolInput" }).click();
        const input = JSON.parse((await page.getByTestId("inspector-toolInput").textContent()) ?? "{}") as object;
        expect(input).toMatchObject({ file: {}, reading: {}, occasion: expect.any(String) as string });
        // the job's status, or the refusal the widget shows in its place
        const outcome = () =>
          widget
            .locator(".gg-status, .gg-error")
            .first()
            .textContent({ timeout: 1_000 })
            .catch(() => "");
        await expect.poll(outcome, { timeout: JOB_TIMEOUT }).toBe("Completed");
        await widget.locator(".gg-summary").waitFor({ timeout: JOB_TIMEOUT });
        await page.getByLabel(/^Empty objects/).uncheck();
        expect(errors).toEqual([]);
      });
      await page.close();
    },
    2 * JOB_TIMEOUT,
  );
});
