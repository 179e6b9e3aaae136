/**
 * The job service's calls that change jobs: start (within the subject's quotas, handed to the
 * executor), cancel, delete and the claim on a job's follow-up, each for the job's owner only (the
 * access gate).
 */
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import type { JobFold } from "../../shared/job-reducer.js";
import { isFinished } from "../../shared/job-view.js";
import {
  URI,
  type CancelJobInput,
  type CancelJobOutput,
  type ClaimFollowUpOutput,
  type DeleteJobInput,
  type DeleteJobOutput,
  type StartBulkArgs,
  type StartBulkResult,
} from "../../shared/tools.js";
import type { Gate } from "./access.js";
import type { Caller } from "./caller.js";
import type { Endings } from "./endings.js";
import type { JobExecutor, RunOptions } from "./executor.js";
import type { JobLog } from "./job-log.js";
import { readInputLimits, type JobLimits } from "../limits.js";
import { fail, ok, unknownJob, type Outcome } from "../outcomes.js";
import { checkQuotas, createQuota } from "./quotas.js";
import type { EventListeners, Relay } from "./relay.js";
import { stagePlan } from "./runner/progress.js";
import { jobTexts, type JobTexts, type Locale } from "./runner/texts.js";
import { planStart, type StartPlan } from "./start-plan.js";
import { QuotaExceededError, inputBytes, type JobStore } from "./store.js";
import type { Waiters } from "./waiters.js";

export type StartOptions = {
  /** Handed to the service's `beforeSlice` hook wherever the job runs; opaque here. */
  runOptions?: RunOptions;
  /** The language of the job's words (stage labels, progress, summaries); English by default. */
  locale?: Locale;
  /** The list is the staff-file reader's CSV, already held to the file's limits: the text's byte limit is not its own. */
  read?: boolean;
};

/** What the writes work with, from the service that owns them. */
type WritesContext = {
  store: JobStore;
  limits: JobLimits;
  now: () => number;
  log: JobLog;
  gate: Gate;
  endings: Endings;
  executor: JobExecutor;
  waiters: Waiters;
  relay: Relay;
  listeners: EventListeners;
  /** Resolves once the executor's start-up recovery has run. */
  ready: Promise<void>;
  closing: () => boolean;
};

type CancelOutcome = Outcome<z.infer<typeof CancelJobOutput>>;
type DeleteOutcome = Outcome<z.infer<typeof DeleteJobOutput>>;
type ClaimOutcome = Outcome<z.infer<typeof ClaimFollowUpOutput>>;

/** ≥128 random bits, so a job id cannot be guessed. */
const newJobId = () => `job_${randomBytes(16).toString("base64url")}`;

export class JobWrites {
  readonly #context: WritesContext;

  constructor(context: WritesContext) {
    this.#context = context;
  }

  /** Creates the job within the caller's quotas and hands it to the executor. */
  readonly start = async (
    args: StartBulkArgs,
    caller: Caller,
    options: StartOptions = {},
  ): Promise<Outcome<StartBulkResult>> => {
    const { limits, relay, listeners, executor, ready, closing } = this.#context;
    await ready;
    if (closing()) return fail("internal", "The server is shutting down.", "Try again in a moment.");
    const plan = await planStart(args, options.read ? readInputLimits(limits) : limits);
    if (!plan.ok) return plan;
    const jobId = newJobId();
    const owner: Caller =
      caller.sessionId === undefined
        ? { subject: caller.subject }
        : { subject: caller.subject, sessionId: caller.sessionId };
    const texts = jobTexts(options.locale ?? "en");
    const stages = stagePlan(texts);
    const created = await this.#create(jobId, owner, plan.value, texts, stages);
    if (!created.ok) return created;
    const fold = created.value;
    // followed for listeners of other processes' events, if any: with none, there is nothing to relay
    if (listeners.wantsRelayed()) relay.follow(owner, fold);
    const { runOptions, locale } = options;
    await executor.submit({ jobId, owner, plan: plan.value, runOptions, locale });
    return ok({ jobId, status: fold.status, stages, resultUri: URI.jobResult(jobId) });
  };

  readonly cancel = async ({ jobId }: z.infer<typeof CancelJobInput>, caller: Caller): Promise<CancelOutcome> => {
    const { gate, endings, log, executor, ready } = this.#context;
    await ready;
    const gated = await gate(jobId, caller);
    if (!gated.ok) return gated;
    // stopped here, its end not yet written: it has ended as readers are told
    if (endings.unended(jobId)) return ok({ jobId, status: "failed" as const, changed: false });
    const appended = await log.append(jobId, gated.value.owner, [
      { type: "job.canceled", payload: { reason: "Canceled on request." } },
    ]);
    if (!appended.ok) return ok({ jobId, status: appended.fold.status, changed: false });
    executor.stop(jobId);
    endings.forget(jobId);
    return ok({ jobId, status: appended.fold.status, changed: true });
  };

  readonly delete = async ({ jobId }: z.infer<typeof DeleteJobInput>, caller: Caller): Promise<DeleteOutcome> => {
    const { store, gate, endings, executor, waiters, ready } = this.#context;
    await ready;
    const gated = await gate(jobId, caller);
    if (!gated.ok) return gated;
    // nothing is written before the delete (no cancel event): on a full disk the delete is
    // what makes room. The job stops here, or (run elsewhere) at its next write.
    const canceled = !isFinished(gated.value.status) && !endings.unended(jobId);
    executor.stop(jobId);
    endings.forget(jobId);
    if (!(await store.delete(jobId))) return unknownJob(jobId);
    waiters.wake(jobId);
    return ok({ jobId, canceled });
  };

  /** The job's follow-up, for the first of its owner's claims once it has ended (the store decides). */
  readonly claimFollowUp = async (jobId: string, caller: Caller): Promise<ClaimOutcome> => {
    const { store, gate, ready } = this.#context;
    await ready;
    const gated = await gate(jobId, caller);
    return gated.ok ? ok({ jobId, claimed: await store.claimFollowUp(jobId) }) : gated;
  };

  /** Writes the job and its first event if the subject's quotas leave room; its fold. */
  async #create(
    jobId: string,
    owner: Caller,
    { input, estimatedRows }: StartPlan,
    texts: JobTexts,
    stages: ReturnType<typeof stagePlan>,
  ): Promise<Outcome<JobFold>> {
    const { store, limits, now, log } = this.#context;
    const startedAt = now();
    try {
      const title = texts.title(input.occasion, texts.count(estimatedRows));
      const payload = { kind: "bulk_gift_analysis" as const, title, stages, currency: input.currency ?? "USD" };
      const fold = await log.create(
        { jobId, owner, input, createdAt: startedAt },
        { type: "job.created", payload },
        createQuota(limits, startedAt),
      );
      return ok(fold);
    } catch (error) {
      if (!(error instanceof QuotaExceededError)) throw error;
      // the store found no room as it wrote: say which limit it was
      const refusal = await checkQuotas(store, owner.subject, inputBytes(input), limits, startedAt);
      // a job that ended since the write made room again
      return refusal.ok
        ? fail("quota_exceeded", "Too many analyses were started at the same moment.", "Start this one again.")
        : refusal;
    }
  }
}
