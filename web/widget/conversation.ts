/**
 * The card in the conversation: while mounted it keeps the model told what it shows
 * (model-context.ts, paced by context-sender.ts), and once the job it watched has ended it tells
 * the chat once, in the person's language, never a name: only the card that wins the server's
 * claim (`claim_job_follow_up`) posts, after the model context and the result's figures.
 */
import { useEffect } from "react";
import { isFinished, type JobView } from "../../shared/job-view.js";
import { ClaimFollowUpOutput, TOOL, type ResultFigures } from "../../shared/tools.js";
import { createContextSender } from "./context-sender.js";
import type { Host } from "./host.js";
import { useHost } from "./host-context.js";
import { messagesFor, type Messages } from "./i18n.js";
import { useJobViewsApi } from "./job-views.js";
import { contextKey, modelContextOf } from "./model-context.js";
import { keep, readKept } from "./kept.js";
import { followResult, useResultStoreApi, type ResultStoreState } from "./result-store.js";

const SWITCH = "gg-follow-up";

/** Whether the person wants the chat told when a job ends (yes until they say no). */
export const followUpOn = (): boolean => readKept(SWITCH) !== "off";
export const setFollowUpOn = (on: boolean): void => keep(SWITCH, on ? "on" : "off");

/** The message for the ended job `view`: how it ended and, once completed, its `figures` less the interests not understood. */
function followUpText(t: Messages, view: JobView, figures: ResultFigures | null): string {
  if (view.status === "failed") return `${t.failed} (${view.error?.code ?? "internal"})`;
  if (view.status === "canceled") return t.canceled;
  return figures ? `${t.completed} ${t.resultSummary({ ...figures, unplaced: undefined })}.` : t.completed;
}

/** Claims the job's follow-up and, only when this card got it, posts `text`. */
async function tellChat(host: Host, jobId: string, text: string): Promise<void> {
  const claim = await host.callTool(TOOL.claimFollowUp, { jobId }, ClaimFollowUpOutput);
  if (claim.ok && claim.value.claimed) await host.sendFollowUp(text);
}

/** The finished result's first page has come (or could not): its figures are known, or will not be. */
const headRead = (p: ResultStoreState["pages"][string] | undefined): boolean =>
  p !== undefined && !p.partial && !p.loading && (p.nextOffset !== 0 || p.error !== null);

/**
 * How recent an end still counts as watched when no poll found the job running (a quick job can
 * end before the first poll); not an end learned of a day later.
 */
const RECENT_END_MS = 10 * 60_000;

export function useConversation(jobId: string): void {
  const host = useHost();
  const jobs = useJobViewsApi();
  const results = useResultStoreApi();
  useEffect(() => {
    const offered = host.conversation();
    if (!offered.modelContext && !offered.followUp) return;
    const sender = createContextSender((context) => host.updateModelContext(context));
    let told = false;
    const look = () => {
      const { jobs: views, diagnostics } = jobs.getState();
      const view = views[jobId];
      if (view === undefined || view.lastSeq === 0) return;
      const pages = results.getState().pages[jobId];
      const figures = pages?.figures ?? null;
      const { locale } = host.getGlobals();
      if (offered.modelContext) sender.offer(contextKey(view, figures), () => modelContextOf(view, figures, locale));
      if (!isFinished(view.status)) return;
      const completed = view.status === "completed";
      if (
        !told &&
        (!completed || headRead(pages)) &&
        offered.followUp &&
        (diagnostics[jobId]?.watched || Date.now() - Date.parse(view.finishedAt ?? "") < RECENT_END_MS) &&
        followUpOn()
      ) {
        told = true;
        const text = followUpText(messagesFor(locale), view, figures);
        void sender.flush().then(() => tellChat(host, jobId, text));
      }
      // last, as the store it changes calls this again
      if (completed) followResult(host, results, jobId, false, 0);
    };
    const stops = [jobs.subscribe(look), results.subscribe(look)];
    look();
    return () => {
      stops.forEach((stop) => stop());
      sender.stop();
    };
  }, [host, jobs, results, jobId]);
}
