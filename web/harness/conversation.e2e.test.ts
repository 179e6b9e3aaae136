/**
 * The card in the conversation, in a real browser against the real server, in both kinds of host
 * (ChatGPT's `window.openai`, MCP Apps through the official AppBridge offering `updateModelContext`
 * and `message`): the end of a job the card watched is told once, as a follow-up in the
 * conversation, after the model context and the server's claim; neither says a name from the staff
 * list; a widget made again after the end, or a job opened again from the recent jobs, tells
 * nothing; a reload mid-job and a second page on the same job still tell it once. Needs
 * `npm run build` first, and a server with `claim_job_follow_up`.
 */
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import type { Page } from "playwright-core";
import { setUpBrowserTests } from "../../test-kit/browser.js";

const SAMPLE_NAMES = parse<{ name: string }>(readFileSync(new URL("./sample-employees.csv", import.meta.url)), {
  columns: true,
}).map((r) => r.name);
const JOB_TIMEOUT = 60_000;
const DONE = /^The analysis is complete\. 25 people · .*top picks \$[\d,.]+ of the \$[\d,.]+ budget\.$/;

const run = setUpBrowserTests();

/** Keeps, in the harness page, every message a widget frame posts to it (what the widget says to its host). */
const recordWidgetMessages = (page: Page) =>
  page.addInitScript(() => {
    if (window.top !== window) return;
    const said: string[] = [];
    Reflect.set(window, "__widgetSaid", said);
    window.addEventListener("message", (e) => {
      if (e.source !== window) said.push(JSON.stringify(e.data));
    });
  });
const widgetSaid = (page: Page) => page.evaluate(() => Reflect.get(window, "__widgetSaid") as string[]);

/** What the widget said of `kind`, in either host's words. */
const KINDS = {
  context: /"method":"ui\/update-model-context"|"op":"setWidgetState"/,
  claim: /"name":"claim_job_follow_up"/,
  followUp: /"method":"ui\/message"|"op":"sendFollowUpMessage"/,
};
const indexesOf = (said: string[], kind: RegExp) => said.flatMap((m, i) => (kind.test(m) ? [i] : []));

const radio = (page: Page, group: string, name: string) =>
  page.getByRole("radiogroup", { name: group }).getByRole("radio", { name });
const form = (page: Page) => page.getByRole("form", { name: "Bulk gift analysis" });
const frame = (page: Page) => page.locator('iframe[title="Widget"]');
const widget = (page: Page) => page.frameLocator('iframe[title="Widget"]');
const followUps = (page: Page) => page.locator(".user-turn p");
const statusOf = (page: Page) =>
  widget(page)
    .locator(".gg-status")
    .getAttribute("data-status", { timeout: 1_000 })
    .catch(() => null);

/** A page of the harness playing `host`, recording what its widgets say. */
async function openAs(host: string) {
  const { page, errors } = await run.openHarness({
    viewport: { width: 1440, height: 900 },
    before: recordWidgetMessages,
  });
  await radio(page, "Host", host).click();
  return { page, errors };
}

/** Starts the sample analysis at `pace`; resolves once its widget is mounted. */
async function start(page: Page, pace: string) {
  const before = (await frame(page).count()) > 0 ? await frame(page).getAttribute("data-mount") : null;
  await form(page).getByRole("button", { name: "Load sample CSV" }).click();
  await form(page).getByLabel(/^Pace/).selectOption({ label: pace });
  await form(page).getByRole("button", { name: "Start bulk analysis" }).click();
  await expect.poll(() => frame(page).getAttribute("data-mount"), { timeout: JOB_TIMEOUT }).not.toBe(before);
}

const ended = (page: Page) => expect.poll(() => statusOf(page), { timeout: JOB_TIMEOUT }).toBe("completed");
/** Long enough for a card that would post to have claimed and posted. */
const settle = (page: Page) => page.waitForTimeout(2_000);

describe.each(["ChatGPT (window.openai)", "MCP Apps (AppBridge)"])("in %s", (host) => {
  it(
    "tells the end once, after the model context and the claim, without a name; a card made again tells nothing more",
    async () => {
      const { page, errors } = await openAs(host);
      await start(page, "Watchable");
      await ended(page);
      await expect.poll(() => followUps(page).allTextContents(), { timeout: JOB_TIMEOUT }).toHaveLength(1);
      expect(await followUps(page).first().textContent()).toMatch(DONE);

      const said = await widgetSaid(page);
      const [claim] = indexesOf(said, KINDS.claim);
      expect(indexesOf(said, KINDS.claim)).toHaveLength(1);
      expect(indexesOf(said, KINDS.followUp)).toHaveLength(1);
      expect(indexesOf(said, KINDS.context).filter((i) => i < claim).length).toBeGreaterThan(0);
      expect(indexesOf(said, KINDS.followUp)[0]).toBeGreaterThan(claim);
      // a handful of updates for a job of dozens of progress events
      expect(indexesOf(said, KINDS.context).length).toBeLessThan(10);
      for (const name of SAMPLE_NAMES) expect(said.join("\n")).not.toContain(name);
      await page.getByRole("tab", { name: "modelContext" }).click();
      const context = await page.getByTestId("inspector-modelContext").textContent();
      expect(context).toContain("completed");
      expect(context).toMatch(/people.*25/);

      // made again moments after the end: the server's claim was taken, so nothing more is said
      await page.getByRole("button", { name: /Reload widget/ }).click();
      await ended(page);
      await settle(page);
      expect(await followUps(page).count()).toBe(1);
      // opened again from the recent jobs, as show_job would (a day later, the card would not even ask:
      // conversation.test.tsx)
      const job = await page
        .getByRole("region", { name: "Recent jobs" })
        .locator("li")
        .first()
        .getAttribute("data-job");
      await page.getByRole("button", { name: `Open ${job}` }).click();
      await ended(page);
      await settle(page);
      expect(await followUps(page).count()).toBe(0);
      expect(errors).toEqual([]);
      await page.context().close();
    },
    3 * JOB_TIMEOUT,
  );

  it(
    "tells the end once across a reload of the widget while the job runs",
    async () => {
      const { page, errors } = await openAs(host);
      await start(page, "Very slow");
      await expect.poll(() => statusOf(page), { timeout: JOB_TIMEOUT }).toBe("running");
      await page.getByRole("button", { name: /Reload widget/ }).click();
      await ended(page);
      await expect.poll(() => followUps(page).count(), { timeout: JOB_TIMEOUT }).toBe(1);
      await settle(page);
      expect(await followUps(page).count()).toBe(1);
      expect(indexesOf(await widgetSaid(page), KINDS.claim)).toHaveLength(1);
      expect(errors).toEqual([]);
      await page.context().close();
    },
    2 * JOB_TIMEOUT,
  );

  it(
    "tells the end once with the job open in two pages",
    async () => {
      const { page, errors } = await openAs(host);
      await start(page, "Very slow");
      await expect.poll(() => statusOf(page), { timeout: JOB_TIMEOUT }).toBe("running");
      // a second page of the same browser: the harness shows again the call on screen, the same job
      const second = await page.context().newPage();
      await recordWidgetMessages(second);
      await second.goto(`${run.server.url}/`);
      await expect.poll(() => statusOf(second), { timeout: JOB_TIMEOUT }).toBe("running");
      await ended(page);
      await ended(second);
      await expect
        .poll(async () => (await followUps(page).count()) + (await followUps(second).count()), {
          timeout: JOB_TIMEOUT,
        })
        .toBe(1);
      await settle(page);
      expect((await followUps(page).count()) + (await followUps(second).count())).toBe(1);
      // both watched it run, both asked, one was given it
      const claims = [...(await widgetSaid(page)), ...(await widgetSaid(second))].filter((m) => KINDS.claim.test(m));
      expect(claims).toHaveLength(2);
      expect(errors).toEqual([]);
      await page.context().close();
    },
    2 * JOB_TIMEOUT,
  );
});
