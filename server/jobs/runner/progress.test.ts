/**
 * Coalesced progress: every stage change, then one report per whole percent at most, never back.
 */
import type { EventDraft } from "../state-machine.js";
import type { BulkStage } from "../../../shared/stage-words.js";
import { countMix, createProgress, stagePlan, stageWeights } from "./progress.js";
import { newPerson } from "../../files/read/people/rows.js";
import { jobTexts, localeOf } from "./texts.js";

const EN = jobTexts("en");
const STAGES = stagePlan(EN) as { id: BulkStage; label: string }[];
/** The shares of a job before its people are known, or of one whose every person asks something new. */
const WEIGHT = stageWeights({ rows: 1, newInterests: 1, newRequests: 1 });
const STAGE_START = {
  parse: 0,
  extract: WEIGHT.parse,
  match: WEIGHT.parse + WEIGHT.extract,
  compose: 100 - WEIGHT.compose,
};

type Payload = Extract<EventDraft, { type: "job.progress" }>["payload"];
/** A job alone, all its time in its slices: it ends once its own work is done. */
const alone = (leftMs: number) => leftMs;

/** Feeds every stage `rows` items in steps of `step`; each report finds another second gone. */
async function simulate(rows: number, step: number, texts = EN) {
  const sent: Payload[] = [];
  let ms = 0;
  const progress = createProgress(
    async (d) => void sent.push(d.payload),
    { busy: () => (ms += 1_000), eta: alone },
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
      STAGES.map((s) => [s.id, s.label, Math.floor(STAGE_START[s.id])]),
    );
  });

  it("tells counts and a message, and no ETA on entering a stage", async () => {
    const sent = await simulate(1_000, 100);
    const p = sent.find((s) => s.stage === "match" && s.processed === 500)!;
    expect(p).toMatchObject({ total: 1_000, message: "Matched gifts for 500 of 1,000 people" });
    expect(p.percentage).toBe(Math.floor(STAGE_START.match + WEIGHT.match / 2));
    expect(sent[0].etaSeconds).toBeUndefined();
    // entering a stage says nothing about its rate: no ETA there
    expect(sent.filter((s) => s.processed === 0 && s.etaSeconds !== undefined)).toEqual([]);
  });

  /** Runs 1,000 items per stage, each stage taking its weight in seconds times `slower[stage]`. */
  async function timed(slower: Partial<Record<BulkStage, number>> = {}) {
    const sent: { at: number; payload: Payload }[] = [];
    let now = 0;
    const progress = createProgress(
      async (d) => void sent.push({ at: now, payload: d.payload }),
      { busy: () => now * 1_000, eta: alone },
      EN,
    );
    for (const { id } of STAGES) {
      await progress.enter(id, 1_000);
      for (let done = 10; done <= 1_000; done += 10) {
        now += (WEIGHT[id] * (slower[id] ?? 1)) / 100;
        await progress.advance(done);
      }
    }
    const end = now;
    return sent.filter((s) => s.payload.etaSeconds !== undefined).map((s) => ({ ...s, left: end - s.at }));
  }

  it("an ETA that is the time left when every stage runs at its weight", async () => {
    for (const { payload, left } of await timed()) expect(payload.etaSeconds).toBeCloseTo(left, 0);
  });

  it("an ETA that follows the last stage at its own pace when it runs slower than its weight", async () => {
    const reports = await timed({ compose: 2 });
    const late = reports.find((r) => r.payload.stage === "compose" && (r.payload.processed ?? 0) >= 800)!;
    // the rest of compose, mostly at the pace compose has shown
    expect(Math.abs(late.payload.etaSeconds! - late.left) / late.left).toBeLessThan(0.25);
    // the time gone by scaled by the bar alone would say much less
    const linear = (late.at * (100 - late.payload.percentage)) / late.payload.percentage;
    expect(Math.abs(linear - late.left) / late.left).toBeGreaterThan(0.25);
  });

  it("speaks the job's language: Korean labels, messages and numbers for a ko locale", async () => {
    const sent = await simulate(2_000, 1_000, jobTexts(localeOf(undefined, "ko-KR")));
    const p = sent.find((s) => s.stage === "match" && s.processed === 1_000)!;
    expect(p).toMatchObject({ stageLabel: "사람별 선물 고르기", message: "2,000명 중 1,000명의 선물을 골랐습니다" });
    expect(localeOf("", "en-GB", "ko")).toBe("en");
    expect(localeOf(undefined, null, "KO-kr")).toBe("ko");
  });

  it("stages add up to 100 percent, whatever the people ask", () => {
    for (const newRequests of [0, 10, 500, 1_000]) {
      const weights = stageWeights({ rows: 1_000, newInterests: Math.min(newRequests, 50), newRequests });
      expect(STAGES.reduce((sum, { id }) => sum + weights[id], 0)).toBeCloseTo(100, 9);
    }
  });

  it("prices the stages after parsing by how many people ask something new", () => {
    // a varied export: every answer new, matching the largest stage
    expect(WEIGHT.match).toBeGreaterThan(WEIGHT.parse);
    // a team sharing ten interest texts: answers remembered, parsing is most of the work
    const repeats = stageWeights({ rows: 100_000, newInterests: 10, newRequests: 80 });
    expect(repeats.parse).toBeGreaterThan(70);
    expect(repeats.match).toBeLessThan(10);
  });

  it("counts the people who ask something new as they are parsed", () => {
    const count = (people: [department: string, interests: string, budget: number][]) => {
      const mix = countMix();
      people.forEach(([department, interests, budget], i) =>
        mix.add(newPerson(i + 2, `P${i}`, department, interests, budget)),
      );
      return mix.mix();
    };
    // ten interest texts, one department and budget: ten different requests among a thousand people
    const team = count(Array.from({ length: 1_000 }, (_, i) => ["Sales", `hobby ${i % 10}`, 50]));
    expect(team.rows).toBe(1_000);
    expect(team.newInterests).toBe(10);
    expect(team.newRequests).toBeCloseTo(10, 3);
    // everyone different: about every person
    const varied = count(Array.from({ length: 1_000 }, (_, i) => [`Team ${i % 7}`, `hobby ${i}`, 20 + (i % 5)]));
    expect(varied.newInterests).toBe(1_000);
    expect(varied.newRequests).toBeGreaterThan(980);
  });

  it("moves a repetitive job's bar with its parsing and prices the rest as nearly free", async () => {
    const sent: Payload[] = [];
    let ms = 0;
    const mix = { rows: 0, newInterests: 10, newRequests: 10 };
    const progress = createProgress(
      async (d) => void sent.push(d.payload),
      { busy: () => ms, eta: alone },
      EN,
      () => mix,
    );
    await progress.enter("parse", 100_000);
    for (let done = 1_000; done <= 50_000; done += 1_000) {
      mix.rows = done;
      ms += 10; // 10 ms for each thousand rows
      await progress.advance(done);
    }
    const half = sent.at(-1)!;
    // half the rows parsed is more than a third of the job, and what is left is mostly parsing
    expect(half.percentage).toBeGreaterThan(35);
    expect(half.etaSeconds).toBeGreaterThan(0.6);
    expect(half.etaSeconds).toBeLessThan(0.9); // by the fixed shares of every person new: 2.8 s
  });
});
