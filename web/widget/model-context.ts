/**
 * What the card tells the model of its job: status, stage, counts and time left while it runs;
 * then the outcome and the result's figures. A short text with YAML front matter (ext-apps
 * docs/patterns.md) and the same as fields; never a person's name or interests.
 */
import { formatsFor } from "../../shared/format.js";
import { isFinished, type JobView } from "../../shared/job-view.js";
import { isBulkStage, STAGE_LABELS } from "../../shared/stage-words.js";
import type { ResultFigures } from "../../shared/tools.js";
import type { ModelContext } from "./host.js";

/** What makes the context worth sending again: the status, the stage, the figures' arrival (never a percent alone). */
export const contextKey = (view: JobView, figures: ResultFigures | null): string =>
  [view.jobId, view.status, view.stage, figures !== null].join();

/** One line of text, whatever a department's name holds. */
const line = (text: string) => text.replace(/\s+/g, " ");

/** The context of `view` (and of its result's `figures`, once known), amounts written for `locale`. */
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
