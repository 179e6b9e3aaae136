// @vitest-environment jsdom
/**
 * The card in the conversation, over the fake ChatGPT host: the model is told what the card shows
 * (its widget state) without a name or an interest, on changes and not for every percent; the end
 * of a job the card watched is told once, after the model context and the claim, in the person's
 * language; never by a card that opened on an ended job, or lost the claim, or was told not to.
 */
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TOOL, type PersonResult } from "../../shared/tools.js";
import { App } from "./app.js";
import { setFollowUpOn } from "./conversation.js";
import type { FollowTuning } from "./follow-job.js";
import { createHost } from "./host-context.js";
import type { Host } from "./host.js";
import { installFakeHost, type FakeHost, type FakeHostOptions } from "../../test-kit/widget/fake-host.js";

const FAST: FollowTuning = { waitMs: 0, backoff: { baseMs: 1, maxMs: 4 }, idleMs: 1, callTimeoutMs: 2000 };
const SLOW = { timeout: 4000 };
beforeEach(() => Reflect.set(globalThis, "IS_REACT_ACT_ENVIRONMENT", false));
let fake: FakeHost | undefined;
let hosts: Host[] = [];

/** Mounts the widget over a fake host made with `options`, everything inline. */
function mount(options: FakeHostOptions) {
  fake = installFakeHost({ noDisplayModes: true, ...options });
  hosts = [createHost()];
  return [render(<App host={hosts[0]} tuning={FAST} />)];
}
afterEach(() => {
  hosts.forEach((host) => host.dispose());
  fake?.uninstall();
  fake = undefined;
  setFollowUpOn(true);
});

/** People whose names, departments' members and interests are nothing the card's figures could say by chance. */
const PEOPLE: PersonResult[] = ["Zyxwa Quokkason", "Brunhilde Vexworth", "Ottoline Smaragd"].map((name, i) => ({
  row: i + 2,
  name,
  department: i === 2 ? "Sales" : "R&D",
  interests: ["xylophonium", "moss terraria"],
  budget: 50,
  gifts: [{ id: `g${i}`, name: "Chess set", price: 40, category: "games", reason: "Likes xylophonium" }],
}));
const PRIVATE = [...PEOPLE.map((p) => p.name), "xylophonium", "moss terraria", "Glorbnak"];

const states = () => fake!.argsOf("setWidgetState").map((a) => a.state as Record<string, unknown>);
const followUps = () => fake!.argsOf("sendFollowUpMessage").map((a) => a.prompt);
const indexOf = (name: string) => fake!.calls.findIndex((c) => c.name === name);

describe("the model context", () => {
  it("tells the model what the card shows as the job goes, in widget state, never a name or an interest", async () => {
    mount({
      jobs: [{ people: PEOPLE, progressPerStage: 20, unplaced: { count: 1, names: ["Glorbnak"] }, currency: "EUR" }],
      batchSize: 2,
    });
    expect(await screen.findByText("Zyxwa Quokkason", {}, SLOW)).toBeTruthy();
    // the figures come a moment after the end, and are told once the few seconds since the last update are over
    await waitFor(() => expect(states().at(-1)).toHaveProperty("people", 3), { timeout: 5000 });
    expect(states().at(-1)).toEqual({
      jobId: "job-1",
      title: "Holiday gifts",
      status: "completed",
      people: 3,
      withGifts: 3,
      skippedRows: 0,
      topPicks: "€120",
      budget: "€150",
      currency: "EUR",
      unplacedInterests: 1,
      departments: ["R&D: 2 people, top picks €80 of €100", "Sales: 1 people, top picks €40 of €50"],
    });
    // sixty progress events, a handful of updates: on changes of stage and status, at most every few seconds
    expect(states().length).toBeLessThan(8);
    const said = JSON.stringify([states(), followUps()]);
    for (const word of PRIVATE) expect(said).not.toContain(word);
  });
});

describe("the follow-up", () => {
  it("is posted once when the job the card watched ends: the model context first, then the claim", async () => {
    mount({ jobs: [{ people: PEOPLE }], batchSize: 2 });
    await waitFor(() => expect(followUps()).toHaveLength(1), SLOW);
    expect(followUps()[0]).toBe("The analysis is complete. 3 people · top picks $120 of the $150 budget.");
    expect(fake!.argsOf(TOOL.claimFollowUp)).toEqual([{ jobId: "job-1" }]);
    const lastContext = fake!.calls.findLastIndex((c) => c.name === "setWidgetState");
    expect(lastContext).toBeLessThan(indexOf(TOOL.claimFollowUp));
    expect(indexOf(TOOL.claimFollowUp)).toBeLessThan(indexOf("sendFollowUpMessage"));
    expect(states().at(-1)).toMatchObject({ status: "completed", people: 3 });
    await new Promise((r) => setTimeout(r, 100));
    expect(followUps()).toHaveLength(1);
  });

  it("is posted once across a reload while the job runs, by the card that saw it end", async () => {
    const [first] = mount({ jobs: [{ people: PEOPLE, progressPerStage: 10 }], batchSize: 1, latencyMs: 5 });
    await waitFor(() => expect(fake!.argsOf(TOOL.getJobEvents).length).toBeGreaterThan(3));
    first.unmount();
    hosts[0].dispose();
    // the frame made again, from the widget state the host kept
    fake!.openai.widgetState = { jobId: "job-1" };
    hosts = [createHost()];
    render(<App host={hosts[0]} tuning={FAST} />);
    await waitFor(() => expect(followUps()).toHaveLength(1), SLOW);
    await new Promise((r) => setTimeout(r, 50));
    expect(fake!.argsOf(TOOL.claimFollowUp)).toHaveLength(1);
    expect(followUps()).toHaveLength(1);
  });

  it("is not posted by a card that lost the claim", async () => {
    mount({ jobs: [{}], batchSize: 2, claimed: ["job-1"] });
    await waitFor(() => expect(fake!.argsOf(TOOL.claimFollowUp)).toHaveLength(1), SLOW);
    await new Promise((r) => setTimeout(r, 50));
    expect(followUps()).toEqual([]);
  });

  it("is not posted by a card that opened on a job already ended (shown again a day later)", async () => {
    mount({ jobs: [{ alreadyAppended: 100 }], batchSize: 2 });
    expect(await screen.findByText("Completed", {}, SLOW)).toBeTruthy();
    // it still tells the model what it shows
    await waitFor(() => expect(states().at(-1)).toMatchObject({ status: "completed", people: 3 }), { timeout: 5000 });
    await new Promise((r) => setTimeout(r, 50));
    expect(fake!.argsOf(TOOL.claimFollowUp)).toEqual([]);
    expect(followUps()).toEqual([]);
  });

  it("is posted by the card of a start whose job ended before its first poll, moments ago", async () => {
    // the fake's events are stamped from 2026-03-01T09:00:00Z, a second apart: the job ended a minute ago
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-03-01T09:02:00.000Z") });
    try {
      mount({ jobs: [{ alreadyAppended: 100 }], batchSize: 100 });
      await waitFor(() => expect(followUps()).toHaveLength(1), SLOW);
      expect(fake!.argsOf(TOOL.claimFollowUp)).toEqual([{ jobId: "job-1" }]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("says how a job failed, in the person's language", async () => {
    mount({ jobs: [{ outcome: "failed" }], batchSize: 2, locale: "ko-KR" });
    await waitFor(() => expect(followUps()).toHaveLength(1), SLOW);
    expect(followUps()[0]).toBe("분석에 실패했습니다. (catalog_down)");
  });

  it("can be turned off in the card while the job runs, and the choice is kept", async () => {
    const [first] = mount({ jobs: [{ progressPerStage: 400 }], batchSize: 1, latencyMs: 5 });
    const toggle = await screen.findByRole("checkbox", { name: "Tell the chat when it's done" });
    expect(toggle).toHaveProperty("checked", true);
    await userEvent.click(toggle);
    expect(localStorage.getItem("gg-follow-up")).toBe("off");
    first.unmount();
    hosts.forEach((host) => host.dispose());
    fake!.uninstall();

    mount({ jobs: [{}], batchSize: 2 });
    expect(await screen.findByText("Completed", {}, SLOW)).toBeTruthy();
    await new Promise((r) => setTimeout(r, 50));
    expect(fake!.argsOf(TOOL.claimFollowUp)).toEqual([]);
    expect(followUps()).toEqual([]);
  });

  it("is neither offered nor posted where the host takes no follow-up", async () => {
    mount({ jobs: [{ progressPerStage: 4 }], batchSize: 1, noFollowUp: true });
    expect(await screen.findByText("Completed", {}, SLOW)).toBeTruthy();
    expect(screen.queryByRole("checkbox")).toBeNull();
    expect(fake!.argsOf(TOOL.claimFollowUp)).toEqual([]);
  });
});
