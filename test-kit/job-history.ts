/**
 * The one check of a job's whole, ended history against the event contract, for every test that
 * reads one: through the job service, through the MCP tools or as it came over the wire.
 */
import { expect } from "vitest";
import { JobEventSchema, isTerminalEvent, type JobEvent } from "../shared/job-events.js";
import { foldJobEvents } from "../shared/job-reducer.js";
import type { JobStatus } from "../shared/job-view.js";
import type { PayloadOf } from "./job-events.js";

/** What a checked history gives a test to look at next. */
export type CheckedHistory = {
  /** The events, as parsed by `JobEventSchema`. */
  events: JobEvent[];
  /** The one terminal event, which is the last. */
  terminal: JobEvent;
  /** Every progress payload, in order. */
  progress: PayloadOf<"job.progress">[];
  /** The stages the progress went through, each once, in order. */
  stages: string[];
};

/**
 * Asserts the event contract on a whole, ended history: each event is exactly a `JobEventSchema`
 * event (nothing else travels), seqs run 1, 2, 3… with unique ids and one jobId (`server.jobId` if
 * given), `job.created` comes first and one terminal event last, the percentage never falls, the
 * planned stages are entered in order and never left and re-entered (all of them when it completed),
 * and folding the events with the shared reducer, in order or backwards, gives one view (with
 * `server.status` if given).
 */
export function expectJobHistory(
  events: readonly unknown[],
  server: { jobId?: string; status?: JobStatus } = {},
): CheckedHistory {
  const parsed = events.map((raw) => JobEventSchema.parse(raw));
  // parsing strips unknown fields, so equality means there were none
  expect(parsed).toStrictEqual(events);
  expect(parsed.map((e) => e.seq)).toEqual(parsed.map((_, i) => i + 1));
  expect(new Set(parsed.map((e) => e.eventId)).size).toBe(parsed.length);
  const [created] = parsed;
  if (created?.type !== "job.created")
    throw new Error(`the history starts with ${created?.type ?? "nothing"}, not job.created`);
  const jobId = server.jobId ?? created.jobId;
  expect(new Set(parsed.map((e) => e.jobId))).toEqual(new Set([jobId]));
  const terminals = parsed.filter(isTerminalEvent);
  expect(terminals).toHaveLength(1);
  const terminal = terminals[0];
  expect(parsed.at(-1)).toBe(terminal);

  const progress = parsed.flatMap((e) => (e.type === "job.progress" ? [e.payload] : []));
  const percentages = parsed.flatMap((e) =>
    e.type === "job.progress" ? [e.payload.percentage] : e.type === "job.completed" ? [100] : [],
  );
  percentages.forEach((p, i) => expect(p).toBeGreaterThanOrEqual(percentages[i - 1] ?? 0));
  const stages = progress.map((p) => p.stage).filter((s, i, all) => i === 0 || all[i - 1] !== s);
  const plan = created.payload.stages.map((s) => s.id);
  expect(stages).toEqual(terminal.type === "job.completed" ? plan : plan.slice(0, stages.length));

  const view = foldJobEvents(jobId, parsed);
  expect(foldJobEvents(jobId, [...parsed].reverse())).toEqual(view);
  if (server.status !== undefined) expect(view.status).toBe(server.status);
  return { events: parsed, terminal, progress, stages };
}
