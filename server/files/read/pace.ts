/**
 * Sharing the event loop while a file is read: the reader calls `pace()` between pieces of work,
 * and it yields a turn (setImmediate, after pending I/O) once a slice's time is used, so reading a
 * 16 MB file never holds the server for more than a few milliseconds at a time.
 */

/** About how long one slice of reading runs before it lets others go. */
const SLICE_MS = 8;

export type Pace = () => Promise<void>;

/** A pace for one reading; `now` is the clock it slices by. */
export function createPace(now: () => number = () => performance.now(), sliceMs = SLICE_MS): Pace {
  let until = now() + sliceMs;
  return async () => {
    if (now() < until) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    until = now() + sliceMs;
  };
}
