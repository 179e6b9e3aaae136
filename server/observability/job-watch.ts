/**
 * The jobs whose events this process appends (so a job's lines come from where it runs): a line when
 * one is created, starts and ends, and metrics of outcomes, durations, stage rates and queue depth.
 */
import { isTerminalEvent, type JobEvent } from "../../shared/job-events.js";
import type { JobEventNotice } from "../jobs/job-log.js";
import type { JobService } from "../jobs/job-service.js";
import { subjectHash, type Logger } from "./logger.js";
import type { Metrics } from "./metrics.js";

/** A stage's first and latest progress: rows processed, and when. */
type StageClock = { stage: string; first: [ms: number, rows: number]; last: [ms: number, rows: number] };

export class JobWatch {
  private readonly waiting = new Set<string>();
  private readonly running = new Set<string>();
  private readonly stages = new Map<string, StageClock>();
  /** Stops hearing the jobs' events. */
  readonly stop: () => void;

  constructor(
    jobs: Pick<JobService, "onEvent">,
    private readonly logger: Logger,
    private readonly metrics?: Metrics,
  ) {
    this.stop = jobs.onEvent(this.hear, { appendedHere: true });
  }

  depth = () => ({ waiting: this.waiting.size, active: this.running.size });

  private hear = ({ event, owner, fold }: JobEventNotice): void => {
    const fields = { jobId: event.jobId, subject: subjectHash(owner.subject) };
    const at = Date.parse(event.timestamp);
    switch (event.type) {
      case "job.created":
        this.waiting.add(event.jobId);
        this.logger.info({ ...fields, kind: event.payload.kind }, "job created");
        return;
      case "job.started":
        this.waiting.delete(event.jobId);
        this.running.add(event.jobId);
        this.logger.info(fields, "job started");
        return;
      case "job.progress":
        this.progress(event.jobId, event.payload, at);
        return;
      default:
        if (!isTerminalEvent(event)) return;
        this.finishStage(event.jobId);
        this.waiting.delete(event.jobId);
        this.running.delete(event.jobId);
        this.ended(event, fields, Date.parse(fold.startedAt ?? fold.createdAt ?? event.timestamp), at);
    }
  };

  private ended(event: JobEvent, fields: Record<string, string>, fromMs: number, atMs: number): void {
    const outcome = event.type.slice("job.".length);
    const durationMs = Math.max(0, atMs - fromMs);
    this.metrics?.jobs.inc({ outcome });
    this.metrics?.jobDuration.observe({ outcome }, durationMs / 1000);
    if (event.type === "job.failed") {
      const { code, retryable } = event.payload;
      this.logger.warn({ ...fields, outcome, code, retryable, durationMs }, "job ended");
    } else {
      const resultCount = event.type === "job.completed" ? event.payload.resultCount : undefined;
      this.logger.info({ ...fields, outcome, durationMs, resultCount }, "job ended");
    }
  }

  /** A new stage closes the one before, whose rate is rows over time between its first and latest progress. */
  private progress(jobId: string, payload: { stage: string; processed?: number }, atMs: number): void {
    if (payload.processed === undefined) return;
    const clock = this.stages.get(jobId);
    if (clock?.stage === payload.stage) {
      clock.last = [atMs, payload.processed];
      return;
    }
    this.finishStage(jobId);
    const point: [number, number] = [atMs, payload.processed];
    this.stages.set(jobId, { stage: payload.stage, first: point, last: point });
  }

  private finishStage(jobId: string): void {
    const clock = this.stages.get(jobId);
    if (clock === undefined) return;
    this.stages.delete(jobId);
    const seconds = (clock.last[0] - clock.first[0]) / 1000;
    const rows = clock.last[1] - clock.first[1];
    if (this.metrics && rows > 0 && seconds > 0) this.metrics.stageRate.observe({ stage: clock.stage }, rows / seconds);
  }
}
