/**
 * The card in the conversation. While it is mounted it keeps the model told what it shows of its
 * job (model-context.ts, sent on changes and at most every few seconds by context-sender.ts), and
 * when the job it watched run has ended it tells the chat once (follow-up.ts): the model context
 * first, then the claim, then the message. A completed job's figures are loaded for both, as the
 * card's result loads them, and waited for before the end is told.
 */
import { useEffect } from "react";
import { isFinished } from "../../shared/job-view.js";
import { createContextSender } from "./context-sender.js";
import { followUpOn, followUpText, tellChat } from "./follow-up.js";
import { useHost } from "./host-context.js";
import { messagesFor } from "./i18n.js";
import { useJobViewsApi } from "./job-views.js";
import { contextKey, modelContextOf } from "./model-context.js";
import { followResult, useResultStoreApi, type ResultStoreState } from "./result-store.js";

/** The finished result's first page has come (or could not): its figures are known, or will not be. */
const headRead = (p: ResultStoreState["pages"][string] | undefined): boolean =>
  p !== undefined && !p.partial && !p.loading && (p.nextOffset !== 0 || p.error !== null);

/**
 * How recent an end still counts as one the card watched, when no poll of its own found the job
 * running (a quick job can end before the first poll); not an end it learns of a day later.
 */
const RECENT_END_MS = 10 * 60_000;

/** Speaks for the card of `jobId` in the conversation, where the host lets it. */
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
