/**
 * The card tells the chat once that the job it watched has ended: a short message in the person's
 * language with the outcome and, for a completed job, its figures in words (never a name), posted
 * only by the card that wins the job's claim on the server (`claim_job_follow_up`), so a job is told
 * once however many cards show it. The person can turn it off; the choice is kept (kept.ts).
 */
import type { JobView } from "../../shared/job-view.js";
import { ClaimFollowUpOutput, TOOL, type ResultFigures } from "../../shared/tools.js";
import type { Host } from "./host.js";
import type { Messages } from "./i18n.js";
import { keep, readKept } from "./kept.js";

const SWITCH = "gg-follow-up";

/** Whether the person wants the chat told when a job ends (yes until they say no). */
export const followUpOn = (): boolean => readKept(SWITCH) !== "off";
export const setFollowUpOn = (on: boolean): void => keep(SWITCH, on ? "on" : "off");

/**
 * The message for the ended job `view`, in the card's own words: how it ended and, once completed,
 * its result's `figures` when known, less the interests not understood, which the card names.
 */
export function followUpText(t: Messages, view: JobView, figures: ResultFigures | null): string {
  if (view.status === "failed") return `${t.failed} (${view.error?.code ?? "internal"})`;
  if (view.status === "canceled") return t.canceled;
  return figures ? `${t.completed} ${t.resultSummary({ ...figures, unplaced: undefined })}.` : t.completed;
}

/** Claims the job's follow-up and, only when this card got it, posts `text`; true once posted. */
export async function tellChat(host: Host, jobId: string, text: string): Promise<boolean> {
  const claim = await host.callTool(TOOL.claimFollowUp, { jobId }, ClaimFollowUpOutput);
  return claim.ok && claim.value.claimed && (await host.sendFollowUp(text));
}
