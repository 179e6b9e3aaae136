/**
 * Coalesced progress: every stage change, then one report per whole percent at most, never back.
 */
import type { EventDraft } from "../state-machine.js";
import { createProgress } from "./progress.js";
import { STAGE_START, stagePlan, stageWeight, type StageId } from "./stages.js";
import { jobTexts, localeOf } from "./texts.js";

const EN = jobTexts("en");
const STAGES = stagePlan(EN) as { id: StageId; label: string }[];

type Payload = Extract<EventDraft, { type: "job.progress" }>["payload"];

/** Feeds every stage `rows` items in steps of `step`; each report finds another second gone. */
async function simulate(rows: number, step: number, texts = EN) {
  const sent: Payload[] = [];
  let ms = 0;
  const progress = createProgress(
    async (d) => void sent.push(d.payload),
    () => (ms += 1_000),
    texts,
  );
  for (const { id } of STAGES) {
    await progress.enter(id, rows);
    for (let done = step; done <= rows; done += step) await progress.advance(done);
  }
  return sent;
}

describe("createProgress", () => {
  it("sends about a hundred reports for a huge job, fed row by row", async () => {
    const sent = await simulate(200_000, 1);
    expect(sent.length).toBeLessThanOrEqual(104);
    expect(sent.length).toBeGreaterThanOrEqual(96);
    for (let i = 1; i < sent.length; i++) expect(sent[i].percentage).toBeGreaterThanOrEqual(sent[i - 1].percentage);
    expect(Math.max(...sent.map((p) => p.percentage))).toBe(99);
  });

  it("always reports entering a stage, with its label, even when nothing else moves", async () => {
    const sent = await simulate(1, 1);
    const entries = sent.filter((p) => p.processed === 0);
    expect(entries.map((p) => [p.stage, p.stageLabel, p.percentage])).toEqual(
      STAGES.map((s) => [s.id, s.label, STAGE_START[s.id]]),
    );
  });

  it("tells counts, a message and an ETA from the rate so far", async () => {
    const sent = await simulate(1_000, 100);
    const p = sent.find((s) => s.stage === "match" && s.processed === 500)!;
    expect(p).toMatchObject({ total: 1_000, message: "Matched gifts for 500 of 1,000 people" });
    // halfway through match is at p %, reached after n seconds: the rest takes n × (100 − p) / p
    const seconds = sent.indexOf(p) + 1;
    const at = Math.floor(STAGE_START.match + stageWeight("match") / 2);
    expect(p.percentage).toBe(at);
    expect(p.etaSeconds).toBeCloseTo((seconds * (100 - at)) / at, 1);
    expect(sent[0].etaSeconds).toBeUndefined();
    // entering a stage says nothing about its rate: no ETA there
    expect(sent.filter((s) => s.processed === 0 && s.etaSeconds !== undefined)).toEqual([]);
  });

  it("speaks the job's language: Korean labels, messages and numbers for a ko locale", async () => {
    const sent = await simulate(2_000, 1_000, jobTexts(localeOf(undefined, "ko-KR")));
    const p = sent.find((s) => s.stage === "match" && s.processed === 1_000)!;
    expect(p).toMatchObject({ stageLabel: "사람별 선물 고르기", message: "2,000명 중 1,000명의 선물을 골랐습니다" });
    expect(localeOf("", "en-GB", "ko")).toBe("en");
    expect(localeOf(undefined, null, "KO-kr")).toBe("ko");
  });

  it("stages add up to 100 percent", () => {
    const last = STAGES[STAGES.length - 1].id;
    expect(STAGE_START.parse).toBe(0);
    expect(STAGE_START[last] + stageWeight(last)).toBe(100);
  });
});
