/** The timers a unit that decides by time is given, so that a test can run them on a fake clock. */

export type Timer = { unref(): unknown };

export type Timers = {
  setTimeout(run: () => void, ms: number): Timer;
  setInterval(run: () => void, ms: number): Timer;
  /** Cancels a timeout or an interval; nothing for `undefined` or one that has run. */
  clear(timer: Timer | undefined): void;
};

export const systemTimers: Timers = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  setInterval: (run, ms) => setInterval(run, ms),
  // Node's clearTimeout clears intervals too; the timer is one of Node's, made above
  clear: (timer) => clearTimeout(timer as NodeJS.Timeout | undefined),
};
