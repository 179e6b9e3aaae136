/**
 * The boundary between the MCP layer and the jobs: what the tools, resources and notifications
 * need from the job system. The MCP layer depends on this type only; `createJobService` implements it.
 */
import type { z } from "zod";
import type { JobEvent } from "../../shared/job-events.js";
import type { JobView } from "../../shared/job-reducer.js";
import type { ToolError } from "../../shared/errors.js";
import type {
  Gift,
  CancelJobInput,
  CancelJobOutput,
  GetJobEventsInput,
  GetJobEventsResult,
  GetJobResultInput,
  GetJobResultResult,
  JobResult,
  StartBulkInput,
  StartBulkResult,
  WaitForJobInput,
  WaitForJobOutput,
} from "../../shared/tools.js";

/** One person to find gifts for; the matcher ranks catalog items by fit, all within `budget`. */
export type MatchRequest = {
  occasion: string;
  budget: number;
  interests: string[];
  department?: string;
  /** Free text about the recipient (suggest_gifts' `recipient`). */
  text?: string;
  count: number;
};
/** The gift matcher (server/gifts/matcher.ts): pure and fast, shared by suggest_gifts and the jobs. */
export type MatchGifts = (request: MatchRequest) => Gift[];

/** Who is calling: the authenticated subject ("anonymous" while auth is off) and the MCP session. */
export type Caller = { subject: string; sessionId?: string };

/** A domain outcome: a value, or an error that becomes an `isError: true` tool result. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ToolError };

/** What every appended event is published with, for notification fan-out. */
export type JobEventNotice = { event: JobEvent; owner: Caller; view: JobView };

export type JobService = {
  start(args: z.infer<typeof StartBulkInput>, caller: Caller): Promise<Outcome<StartBulkResult>>;
  /** Events after `afterSeq`; with `waitMs`, resolves as soon as one exists (long poll) or time is up. */
  getEvents(
    args: z.output<typeof GetJobEventsInput>,
    caller: Caller,
    signal?: AbortSignal,
  ): Promise<Outcome<GetJobEventsResult>>;
  getResult(args: z.output<typeof GetJobResultInput>, caller: Caller): Promise<Outcome<GetJobResultResult>>;
  /** The full result, for the result resource. */
  readResult(jobId: string, caller: Caller): Promise<Outcome<JobResult>>;
  cancel(args: z.infer<typeof CancelJobInput>, caller: Caller): Promise<Outcome<z.infer<typeof CancelJobOutput>>>;
  /** Waits until the job ends or time is up, calling `onView` whenever the view changes. */
  waitFor(
    args: z.output<typeof WaitForJobInput>,
    caller: Caller,
    onView: (view: JobView) => void,
    signal?: AbortSignal,
  ): Promise<Outcome<z.infer<typeof WaitForJobOutput>>>;
  /** Subscribes to every appended event; returns the unsubscribe function. */
  onEvent(listener: (notice: JobEventNotice) => void): () => void;
  close(): Promise<void>;
};
