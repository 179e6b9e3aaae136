/**
 * Tells a dependency's outage once: one line when it is lost (which one, why), at most one reminder
 * per `remindEveryMs` while it stays lost, one line when it is back. Each is a single line without
 * a stack: an outage is an expected fault. Time is injected, so the test needs no clock.
 */

export type OutageLog = {
  /** A call to the dependency failed for `why`. */
  lost(why: string): void;
  /** A call to the dependency succeeded. */
  back(): void;
};

export type OutageLogOptions = {
  /** Names the dependency, e.g. "Sign-in provider https://id.example.com". */
  name: string;
  log: (line: string) => void;
  now?: () => number;
  remindEveryMs?: number;
};

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

function lasted(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}

export function createOutageLog({ name, log, now = Date.now, remindEveryMs = 60_000 }: OutageLogOptions): OutageLog {
  let down: { since: number; told: number } | undefined;
  return {
    lost(why) {
      const at = now();
      if (down === undefined) {
        down = { since: at, told: at };
        log(oneLine(`${name} lost: ${why}.`));
      } else if (at - down.told >= remindEveryMs) {
        down.told = at;
        log(oneLine(`${name} still lost after ${lasted(at - down.since)}: ${why}.`));
      }
    },
    back() {
      if (down === undefined) return;
      log(`${name} back after ${lasted(now() - down.since)}.`);
      down = undefined;
    },
  };
}
