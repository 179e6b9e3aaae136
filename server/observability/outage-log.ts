/**
 * An outage of one dependency (Redis, the sign-in provider) told once, whichever of its users see
 * it: a line when the first loses it, a reminder a minute, a line when all have it back. One line
 * each, without a stack: an outage is an expected fault.
 */

export type OutageLogOptions = {
  /** The dependency as the lines name it, without secrets: "Redis at 127.0.0.1:6379". */
  dependency: string;
  print: (line: string) => void;
  now?: () => number;
  /** Starts a repeating timer and returns its stop. */
  every?: (ms: number, tick: () => void) => () => void;
};

/** One user of the dependency ("the job worker"). */
export type OutagePart = {
  lost(why: string): void;
  /** Nothing is said unless it had lost it. */
  back(): void;
};

const everyMs = (ms: number, tick: () => void) => {
  const timer = setInterval(tick, ms).unref();
  return () => clearInterval(timer);
};

const span = (ms: number) => (ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`);

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

const REMIND_MS = 60_000;

export function createOutageLog({ dependency, print, now = Date.now, every = everyMs }: OutageLogOptions) {
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
    stopReminders = every(REMIND_MS, remind);
  };

  const back = (name: string) => {
    if (!down.delete(name) || down.size > 0) return;
    stopReminders?.();
    stopReminders = undefined;
    print(`${dependency} is reachable again, after ${span(now() - since)}.`);
  };

  return {
    part: (name: string): OutagePart => ({ lost: (why) => lost(name, why), back: () => back(name) }),
  };
}
