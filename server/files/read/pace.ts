/**
 * Sharing the event loop while a file is read: `pace()` between pieces of work yields a turn
 * (setImmediate, after pending I/O) once a slice's time is used.
 */
const SLICE_MS = 8;

export type Pace = () => Promise<void>;

export function createPace(now: () => number = () => performance.now(), sliceMs = SLICE_MS): Pace {
  let until = now() + sliceMs;
  return async () => {
    if (now() < until) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    until = now() + sliceMs;
  };
}
