/**
 * The order of a graceful stop (SIGTERM or SIGINT): /readyz turns 503 at once; after the drain
 * time (DRAIN_SECONDS, for a balancer to take the instance out of rotation) the listener stops
 * taking connections; then the job service closes, which answers every open long poll and ends
 * this process's running jobs as interrupted; once the polls' answers are out, the app closes,
 * which ends session and listen streams; then the process exits with 0. One that does not get
 * there within the deadline exits with 1.
 */
import type { Logger } from "./logger.js";

export type ShutdownOptions = {
  logger: Logger;
  drain: () => void;
  drainMs: number;
  stopListening: () => void;
  /** Closes the job service (answers long polls, ends running jobs). */
  closeJobs: () => Promise<void>;
  /** Open long polls, to let their answers go out before streams are closed. */
  openPolls: () => number;
  /** Closes the app (sessions, streams) and whatever else the process holds. */
  closeRest: () => Promise<void>;
  exit: (code: number) => void;
  /** Past drainMs, how long the rest may take before the process exits with 1 (default 10 s). */
  deadlineMs?: number;
  sleep?: (ms: number) => Promise<void>;
  setTimer?: (run: () => void, ms: number) => unknown;
};

/** How often the stop looks whether the long polls' answers are out, and for how long at most. */
const POLL_CHECK_MS = 20;
const POLL_ANSWER_MS = 2000;

/** The stop, once: a second signal while it runs changes nothing. */
export function createShutdown(options: ShutdownOptions): () => void {
  const {
    logger,
    deadlineMs = 10_000,
    sleep = (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    setTimer = (run, ms) => setTimeout(run, ms).unref(),
  } = options;
  let started = false;
  const run = async () => {
    options.drain();
    logger.info({ drainMs: options.drainMs }, "shutdown: draining, /readyz answers 503");
    await sleep(options.drainMs);
    setTimer(() => {
      logger.error({ deadlineMs }, "shutdown: not done in time, exiting");
      options.exit(1);
    }, deadlineMs);
    options.stopListening();
    await options.closeJobs();
    for (let waited = 0; options.openPolls() > 0 && waited < POLL_ANSWER_MS; waited += POLL_CHECK_MS) {
      await sleep(POLL_CHECK_MS);
    }
    logger.info("shutdown: long polls answered, closing streams");
    await options.closeRest();
    logger.info("shutdown: done");
    options.exit(0);
  };
  return () => {
    if (started) return;
    started = true;
    run().catch((error: unknown) => {
      logger.error({ err: error }, "shutdown failed");
      options.exit(1);
    });
  };
}
