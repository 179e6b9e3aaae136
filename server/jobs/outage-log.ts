/**
 * An outage of one dependency told once, whichever of its users' connections see it: a line when
 * the first of them loses it (which one, and why), a reminder a minute while any is still without
 * it (which ones), and a line when all have it back (after how long). Each user's connection is a
 * part, told of by its `ConnectionListener`.
 */
import type { ConnectionListener } from "../redis/connection.js";
import { describeFault } from "../redis/connection.js";

export type OutageLogOptions = {
  /** The dependency as the lines name it, without secrets: "Redis at 127.0.0.1:6379". */
  dependency: string;
  /** Writes one line. */
  print: (line: string) => void;
  /** The time in ms; default `Date.now`. */
  now?: () => number;
  /** How often a reminder comes while down, in ms; default a minute. */
  remindMs?: number;
  /** Starts a repeating timer and returns its stop; default an unref'd `setInterval`. */
  every?: (ms: number, tick: () => void) => () => void;
};

export type OutageLog = {
  /** The listener of one part's connection, named as the lines name it ("the job worker"). */
  part(name: string): ConnectionListener;
};

const everyMs = (ms: number, tick: () => void) => {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
};

/** How long, in words: "45 s", "3 min". */
const span = (ms: number) => (ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`);

/** An outage log for `dependency`, printing through `print`. */
export function createOutageLog({
  dependency,
  print,
  now = Date.now,
  remindMs = 60_000,
  every = everyMs,
}: OutageLogOptions): OutageLog {
  /** The parts without the dependency, each with why. */
  const down = new Map<string, string>();
  let since = 0;
  let stopReminders: (() => void) | undefined;

  const list = () => [...down.keys()].join(", ");
  const remind = () => {
    const why = [...new Set(down.values())].join("; ");
    print(`${dependency} is still unreachable after ${span(now() - since)} for ${list()} (${why}); retrying.`);
  };

  return {
    part(name) {
      return (up, error) => {
        if (!up) {
          if (down.has(name)) return;
          const why = describeFault(error);
          down.set(name, why);
          if (down.size > 1) return; // the outage is told already
          since = now();
          print(`${dependency} is unreachable for ${name} (${why}); retrying, and calls that need it fail fast.`);
          stopReminders = every(remindMs, remind);
          return;
        }
        if (!down.delete(name) || down.size > 0) return;
        stopReminders?.();
        stopReminders = undefined;
        print(`${dependency} is reachable again, after ${span(now() - since)}.`);
      };
    },
  };
}
