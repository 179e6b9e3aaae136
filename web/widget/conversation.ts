/**
 * The card in the conversation: while mounted it keeps the model told what it shows; once the job it
 * watched has ended, the card that wins `claim_job_follow_up` tells the chat once, in the person's
 * language and never a name, after the model context.
 */
import { useEffect } from "react";
import { formatsFor } from "../../shared/format.js";
import { isFinished, type JobView } from "../../shared/job-view.js";
import { isBulkStage, STAGE_LABELS } from "../../shared/stage-words.js";
import { ClaimFollowUpOutput, TOOL, type ResultFigures } from "../../shared/tools.js";
import type { ModelContext } from "./host.js";
import { useHost } from "./host-context.js";
import { messagesFor, type Messages } from "./i18n.js";
import { useJobViewsApi } from "./job-views.js";
import { keep, readKept } from "./view-state.js";
import { EMPTY_PAGES, followResult, useResultStoreApi, type ResultPages } from "./result-store.js";

const SWITCH = "gg-follow-up";

/** Whether the person wants the chat told when a job ends (yes until they say no). */
export const followUpOn = (): boolean => readKept(SWITCH) !== "off";
export const setFollowUpOn = (on: boolean): void => keep(SWITCH, on ? "on" : "off");

/** How the job ended and, once completed, its figures less the interests not understood. */
function followUpText(t: Messages, view: JobView, figures: ResultFigures | null): string {
  if (view.status === "failed") return `${t.failed} (${view.error?.code ?? "internal"})`;
  if (view.status === "canceled") return t.canceled;
  return figures ? `${t.completed} ${t.resultSummary({ ...figures, unplaced: undefined })}.` : t.completed;
}

/** The finished result's first page has come (or could not): its figures are known, or never will be. */
const headRead = (p: ResultPages): boolean => !p.partial && !p.loading && (p.nextOffset !== 0 || p.error !== null);

/** An end this recent counts as watched though no poll saw the job run (a quick job); not one a day old. */
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
      const pages = results.getState().pages[jobId] ?? EMPTY_PAGES;
      const { figures } = pages;
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
        void sender.flush().then(async () => {
          const claim = await host.callTool(TOOL.claimFollowUp, { jobId }, ClaimFollowUpOutput);
          if (claim.ok && claim.value.claimed) await host.sendFollowUp(text);
        });
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

/** What makes the context worth sending again: the status, the stage, the figures' arrival (never a percent alone). */
export const contextKey = (view: JobView, figures: ResultFigures | null): string =>
  [view.jobId, view.status, view.stage, figures !== null].join();

/** One line of text, whatever a department's name holds. */
const line = (text: string) => text.replace(/\s+/g, " ");

/**
 * The job's status, stage, counts and time left, then its outcome and figures: YAML front matter
 * (ext-apps docs/patterns.md) and the same as fields; never a person's name or interests.
 */
export function modelContextOf(view: JobView, figures: ResultFigures | null, locale: string): ModelContext {
  const currency = figures?.currency ?? view.currency ?? "USD";
  const money = (amount: number) => formatsFor(locale).money(amount, currency);
  const departments = figures?.departments ?? [];
  const all: Record<string, unknown> = {
    jobId: view.jobId,
    title: view.title,
    status: view.status,
    ...(!isFinished(view.status) && {
      stage: view.stage && (isBulkStage(view.stage) ? STAGE_LABELS.en[view.stage] : view.stageLabel),
      processed: view.processed,
      total: view.total,
      etaSeconds: view.etaSeconds,
    }),
    ...(view.error && { error: view.error.code, retryable: view.error.retryable }),
    ...(figures && {
      people: figures.people,
      withGifts: figures.withGifts,
      skippedRows: figures.skipped,
      topPicks: money(figures.topPicks),
      budget: money(figures.budget),
      currency,
      unplacedInterests: figures.unplaced?.count ?? 0,
      ...(departments.length > 0 && {
        // as the figures have them: the costliest first, at most 40 (the rest summed as "…")
        departments: departments.map(
          (d) =>
            `${line(d.department) || "(none)"}: ${d.people} people, top picks ${money(d.topPicks)} of ${money(d.budget)}`,
        ),
      }),
    }),
  };
  // what is not known (yet) is left out
  const structured = Object.fromEntries(
    Object.entries(all).filter(([, value]) => value !== null && value !== undefined),
  );
  const front = Object.entries(structured).map(([key, value]) =>
    Array.isArray(value) ? [`${key}:`, ...value.map((v) => `  - ${v}`)].join("\n") : `${key}: ${line(String(value))}`,
  );
  return {
    text: `---\n${front.join("\n")}\n---\nThe person sees this in the GiftGenius card; names stay there (get_job_result lists them).`,
    structured,
  };
}

/** Sends the model context when its key changes, at most once per `intervalMs` (the latest waits), made only then. */
export function createContextSender(
  send: (context: ModelContext) => Promise<unknown>,
  { intervalMs = 3_000, now = Date.now }: { intervalMs?: number; now?: () => number } = {},
) {
  let lastKey = "";
  let sentAt = -Infinity;
  let waiting: (() => ModelContext) | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last: Promise<unknown> = Promise.resolve();
  const fire = () => {
    clearTimeout(timer);
    timer = undefined;
    if (waiting === null) return;
    const make = waiting;
    waiting = null;
    sentAt = now();
    last = send(make()).catch(() => undefined);
  };
  return {
    /** A key already offered is ignored. */
    offer(key: string, make: () => ModelContext) {
      if (key === lastKey) return;
      lastKey = key;
      waiting = make;
      const wait = sentAt + intervalMs - now();
      if (wait <= 0) fire();
      else timer ??= setTimeout(fire, wait);
    },
    /** Sends the waiting context now; resolves once the host has answered the last send. */
    flush() {
      fire();
      return last;
    },
    stop() {
      clearTimeout(timer);
      waiting = null;
    },
  };
}
