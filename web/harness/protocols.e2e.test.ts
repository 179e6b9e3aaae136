/**
 * The widget works the same in both protocol revisions and both kinds of host, in a real browser:
 * for each of 2025-11-25 / 2026-07-28 × ChatGPT (`window.openai`) / MCP Apps (`AppBridge`), the
 * harness starts a small analysis (3,000 people, paced so the bar can be watched), the widget
 * shows its progress up to completed and then the same people with the same gifts. In 2026-07-28 the log shows each request's `_meta` envelope and
 * standard headers, and the listen stream for the job, its acknowledgement first. An element
 * picture of each widget goes to `$TMPDIR/giftgenius-protocols/`. Needs `npm run build:web` first.
 */
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { setUpBrowserTests } from "../../test-kit/browser.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";

const SHOTS = join(tmpdir(), "giftgenius-protocols");
const JOB_TIMEOUT = 60_000;
const CSV = Buffer.from(employeeCsv(3_000));

const run = setUpBrowserTests();
let page: Page;
let pageErrors: string[];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  ({ page, errors: pageErrors } = await run.openHarness({
    viewport: { width: 1680, height: 1050 },
    connected: "2025-11-25 · session",
  }));
});

const frame = () => page.locator('iframe[title="Widget"]');
const log = () => page.locator(".log-list");

/** Connects in `protocol` (the top bar says so once it is ready) and plays the host `label`. */
async function choose(protocol: string, label: string) {
  await page.getByRole("radiogroup", { name: "Protocol" }).getByRole("radio", { name: protocol }).click();
  await page.getByRole("status").filter({ hasText: protocol }).waitFor({ timeout: 15_000 });
  await page.getByRole("radio", { name: label }).click();
}

/** Starts the analysis at a pace the bar can be watched at; returns the new widget and the progress it showed. */
async function runAnalysis() {
  const previous = (await frame().count()) > 0 ? await frame().getAttribute("data-mount") : null;
  // uploaded, as a person would: typing thousands of rows into the text area takes a browser half a minute
  await page.getByLabel("Upload…").setInputFiles({ name: "employees.csv", mimeType: "text/csv", buffer: CSV });
  await expect.poll(() => page.getByLabel("Uploaded CSV").textContent()).toContain("3,000 rows");
  await page.getByLabel(/^Pace/).selectOption("500");
  await page.getByRole("button", { name: "Start bulk analysis" }).click();
  await expect.poll(() => frame().getAttribute("data-mount"), { timeout: JOB_TIMEOUT }).not.toBe(previous);
  const widget = page.frameLocator(`iframe[data-mount="${await frame().getAttribute("data-mount")}"]`);
  const seen: number[] = [];
  await expect
    .poll(
      async () => {
        const now = await widget
          .getByRole("progressbar")
          .getAttribute("aria-valuenow", { timeout: 1_000 })
          .catch(() => null);
        if (now !== null && Number(now) !== seen.at(-1)) seen.push(Number(now));
        return seen.at(-1);
      },
      { timeout: JOB_TIMEOUT, interval: 50 },
    )
    .toBe(100);
  return { widget, seen };
}

/** The finished widget's stages and its first page of people. */
async function finished(widget: ReturnType<Page["frameLocator"]>) {
  await expect
    .poll(() => widget.locator(".gg-status").getAttribute("data-status"), { timeout: JOB_TIMEOUT })
    .toBe("completed");
  // inline, the short card's button opens the whole result; a widget mounted after that starts in fullscreen
  const open = widget.getByRole("button", { name: "Open the full result" });
  if (await open.isVisible()) await open.click();
  const stages = widget.locator(".gg-stage");
  await expect
    .poll(async () => (await stages.evaluateAll((els) => els.map((e) => e.getAttribute("data-state")))).join(","), {
      timeout: JOB_TIMEOUT,
    })
    .toMatch(/^done(,done)+$/);
  const people = widget.locator('.gg-rows [role="row"]');
  await expect.poll(() => people.count(), { timeout: JOB_TIMEOUT }).toBeGreaterThanOrEqual(15);
  return {
    stages: await stages.evaluateAll((els) => els.map((e) => `${e.textContent}|${e.getAttribute("data-state")}`)),
    // the first rows: past 200 the table holds only those in view, and views differ in height
    people: (await people.allInnerTexts()).slice(0, 15),
  };
}

/** The log's rows as `dir kind method`, in order. */
const rows = () =>
  log()
    .locator(".log-row")
    .evaluateAll((els) =>
      els.map((e) => `${e.classList[1]} ${e.getAttribute("data-kind")} ${e.getAttribute("data-method")}`),
    );

/** Expands the start call in the log and reads its headers and envelope. */
async function startCallWire() {
  const start = log()
    .locator('.log-row[data-kind="request"][data-method="tools/call"]')
    .filter({ hasText: "start_bulk_gift_analysis" })
    .last();
  await start.getByRole("button").click();
  const headers = await start.getByLabel("Headers").innerText();
  const envelope = start.getByLabel("_meta envelope");
  const wire = { headers, envelope: (await envelope.count()) > 0 ? await envelope.innerText() : "" };
  await start.getByRole("button").click();
  return wire;
}

let first: Awaited<ReturnType<typeof finished>> | undefined;

describe("the widget in every protocol revision and host", () => {
  it.each([
    ["2025-11-25", "ChatGPT (window.openai)", "openai"],
    ["2025-11-25", "MCP Apps (AppBridge)", "mcp-apps"],
    ["2026-07-28", "ChatGPT (window.openai)", "openai"],
    ["2026-07-28", "MCP Apps (AppBridge)", "mcp-apps"],
  ])(
    "in %s with the %s host: progress to completed, then the same result",
    async (protocol, label, kind) => {
      await choose(protocol, label);
      await page.getByRole("button", { name: "Clear" }).click();
      const { widget, seen } = await runAnalysis();
      // the bar went up through the job and never back
      expect(seen.some((p) => p > 0 && p < 100)).toBe(true);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      const result = await finished(widget);
      first ??= result;
      expect(result).toEqual(first);
      await widget.getByRole("progressbar").scrollIntoViewIfNeeded();
      await page.locator(".widget-shell").screenshot({ path: join(SHOTS, `${protocol}-${kind}.png`) });

      const order = await rows();
      const wire = await startCallWire();
      if (protocol === "2026-07-28") {
        expect(order).not.toContain("out request initialize");
        expect(wire.headers).toMatch(/MCP-Protocol-Version\s*2026-07-28/);
        expect(wire.headers).toMatch(/Mcp-Method\s*tools\/call/);
        expect(wire.headers).toMatch(/Mcp-Name\s*start_bulk_gift_analysis/);
        expect(wire.envelope).toMatch(/protocolVersion\s*2026-07-28/);
        expect(wire.envelope).toMatch(/clientInfo\s*\{"name":"giftgenius-harness"/);
        // the listen stream for the job: its first message is the acknowledgement, then the result's updates
        const listen = order.indexOf("out request subscriptions/listen");
        expect(listen).toBeGreaterThan(-1);
        const stream = order.slice(listen + 1).filter((r) => r.startsWith("in notification "));
        expect(stream[0]).toBe("in notification notifications/subscriptions/acknowledged");
        await expect
          .poll(async () => (await rows()).includes("in notification notifications/resources/updated"))
          .toBe(true);
        expect(order.some((r) => r.includes("notifications/job/"))).toBe(false);
      } else {
        expect(wire.headers).toMatch(/MCP-Protocol-Version\s*2025-11-25/);
        expect(wire.headers).toMatch(/Mcp-Session-Id/);
        expect(wire.envelope).toBe("");
        expect(order).toContain("out request resources/subscribe");
        expect(order).not.toContain("out request subscriptions/listen");
      }
      const fromView = order.filter((r) => r.includes("ui/"));
      if (kind === "mcp-apps") expect(fromView.length).toBeGreaterThan(0);
      else expect(fromView).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
    3 * JOB_TIMEOUT,
  );
});
