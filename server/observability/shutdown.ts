/**
 * A graceful stop: /readyz turns 503; after DRAIN_SECONDS the listener stops; the job service closes
 * (answering long polls, interrupting jobs); once the polls' answers are out the app closes; exit 0,
 * or 1 past the deadline.
 */
import type { Logger } from "./logger.js";

export type ShutdownOptions = {
  logger: Logger;
  drain: () => void;
  drainMs: number;
  stopListening: () => void;
  closeJobs: () => Promise<void>;
  /** Open long polls, to let their answers go out before streams are closed. */
  openPolls: () => number;
  /** Closes the app (sessions, streams) and whatever else the process holds. */
  closeRest: () => Promise<void>;
  exit: (code: number) => void;
  /** Past drainMs, how long the rest may take before exiting with 1. */
  deadlineMs?: number;
  sleep?: (ms: number) => Promise<void>;
  setTimer?: (run: () => void, ms: number) => unknown;
};

const POLL_CHECK_MS = 20;
const POLL_ANSWER_MS = 2000;

/** A second signal while it runs changes nothing. */
export function createShutdown(options: ShutdownOptions): () => void {
  const {
    logger,
    deadlineMs = 10_000,
    sleep = (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    setTimer = (run, ms) => setTimeout(run, ms).unref(),
  } = options;
  let running: Promise<void> | undefined;
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
    running ??= run().catch((error: unknown) => {
      logger.error({ err: error }, "shutdown failed");
      options.exit(1);
    });
  };
}
