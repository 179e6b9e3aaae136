/**
 * An outage of one dependency told once, whichever of its users see it: a line when the first of
 * them loses it (which one, and why), a reminder a minute while any is still without it (which
 * ones, and the latest why of each), and a line when all have it back (after how long). Each line
 * is a single line without a stack: an outage is an expected fault. Used for Redis (each
 * connection a part, told of by its watch: redis/connection.ts) and the sign-in provider (token
 * checks). Time and the reminders' timer are injected, so the test needs no clock.
 */

export type OutageLogOptions = {
  /** The dependency as the lines name it, without secrets: "Redis at 127.0.0.1:6379". */
  dependency: string;
  print: (line: string) => void;
  /** The time in ms; default `Date.now`. */
  now?: () => number;
  /** How often a reminder comes while down, in ms; default a minute. */
  remindMs?: number;
  /** Starts a repeating timer and returns its stop; default an unref'd `setInterval`. */
  every?: (ms: number, tick: () => void) => () => void;
};

/** One user of the dependency ("the job worker"), which says when it lost it and when it has it back. */
export type OutagePart = {
  /** It is without the dependency, for `why` (told again while down: the reminders' latest why). */
  lost(why: string): void;
  /** It has the dependency (again); nothing is said unless it had lost it. */
  back(): void;
};

const everyMs = (ms: number, tick: () => void) => {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
};

/** How long, in words: "45 s", "3 min". */
const span = (ms: number) => (ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`);

/** A reason on one line, whatever it holds (a stack's lines, say). */
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

export function createOutageLog({
  dependency,
  print,
  now = Date.now,
  remindMs = 60_000,
  every = everyMs,
}: OutageLogOptions) {
  /** The parts without the dependency, each with why. */
  const down = new Map<string, string>();
  let since = 0;
  let stopReminders: (() => void) | undefined;

  const list = () => [...down.keys()].join(", ");
  const remind = () => {
    const why = [...new Set(down.values())].join("; ");
    print(`${dependency} is still unreachable after ${span(now() - since)} for ${list()} (${why}); retrying.`);
  };

  const lost = (name: string, why: string) => {
    const first = down.size === 0;
    down.set(name, oneLine(why));
    if (!first) return; // the outage is told already
    since = now();
    print(`${dependency} is unreachable for ${name} (${oneLine(why)}); retrying, and calls that need it fail fast.`);
    stopReminders = every(remindMs, remind);
  };

  const back = (name: string) => {
    if (!down.delete(name) || down.size > 0) return;
    stopReminders?.();
    stopReminders = undefined;
    print(`${dependency} is reachable again, after ${span(now() - since)}.`);
  };

  return {
    /** The part named as the lines name it. */
    part: (name: string): OutagePart => ({ lost: (why) => lost(name, why), back: () => back(name) }),
  };
}
