/**
 * How long a job has waited or run, and its ETA, on one line (the counts are the stage line's).
 *
 * Two clocks, told apart by their words: "Waiting" counts from the job's creation while it is
 * pending, "Running" from its start while it runs; once it has ended, "Ran for" is fixed at the
 * time from start to end (or "Waited", from creation to end, for a job that never started). The
 * live clocks read the server's time: the local clock corrected by the smallest gap seen between
 * an event's arrival and its timestamp, so the end is never before the newest event and a local
 * clock set ahead does not run past the final time. Neither clock ever shows less than it showed
 * before: each is clamped against the last value shown, the final time included. A one-second
 * tick re-renders the live clocks and stops when the job ends or the widget unmounts.
 *
 * The ETA is the server's newest estimate, counted down on the server's clock since the event
 * that gave it: a stage's first event carries none (nothing measured in the stage yet), so the
 * estimate before it goes on counting down rather than vanishing. It is shown while the job runs,
 * once the first percent is done (there is a rate), and while a second or more is left.
 */
import { useEffect, useRef, useState } from "react";
import { isFinished, type JobView } from "../../../shared/job-view.js";
import { useMessages } from "../i18n.js";

/** Re-renders every second while `ticking`. */
function useTick(ticking: boolean): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
}

/**
 * The server's time now, as well as the widget can tell: the local clock minus the smallest
 * (arrival − timestamp) seen of the newest event. That gap includes the delivery's latency, so
 * the estimate is not ahead of the server, and it is never before `latestAt`.
 */
function useServerNow(latestAt: string | null): () => number {
  const [gap, setGap] = useState<{ seen: string | null; ms: number }>({ seen: null, ms: Infinity });
  const at = latestAt === null ? NaN : Date.parse(latestAt);
  let ms = gap.ms;
  if (latestAt !== gap.seen && Number.isFinite(at)) {
    ms = Math.min(gap.ms, Date.now() - at);
    setGap({ seen: latestAt, ms }); // state adjusted while rendering: React renders again before committing
  }
  return () => {
    const now = Date.now();
    if (!Number.isFinite(at)) return now;
    return Math.max(at, Number.isFinite(ms) ? now - ms : now);
  };
}

/** Whole seconds from `from` to `to` (ISO timestamps, or ms), never negative; NaN when either is unknown. */
function secondsBetween(from: string | null, to: string | number | null): number {
  const start = from === null ? NaN : Date.parse(from);
  const end = typeof to === "number" ? to : to === null ? NaN : Date.parse(to);
  return Math.max(0, Math.floor((end - start) / 1000));
}

type Clock = { kind: "waiting" | "running" | "waited" | "ran"; seconds: number };

/** Which clock the job shows and its value before clamping; null while its times are unknown. */
function clockOf(view: JobView, serverNow: () => number): Clock | null {
  // a job whose progress came without job.started counts from its creation
  const startedAt = view.startedAt ?? (view.status !== "pending" && view.stage !== null ? view.createdAt : null);
  let clock: Clock;
  if (isFinished(view.status)) {
    clock =
      startedAt !== null
        ? { kind: "ran", seconds: secondsBetween(startedAt, view.finishedAt) }
        : { kind: "waited", seconds: secondsBetween(view.createdAt, view.finishedAt) };
  } else if (view.status === "running" && startedAt !== null) {
    clock = { kind: "running", seconds: secondsBetween(startedAt, serverNow()) };
  } else {
    clock = { kind: "waiting", seconds: secondsBetween(view.createdAt, serverNow()) };
  }
  return Number.isNaN(clock.seconds) ? null : clock;
}

/** "waited" goes on from "waiting" and "ran" from "running": each pair is one clock. */
const family = (kind: Clock["kind"]) => (kind === "waiting" || kind === "waited" ? "waiting" : "running");

/**
 * The seconds left by the newest estimate the job gave, counted down on the server's clock from
 * the event that gave it; null before any estimate.
 */
function useEtaLeft(view: JobView, serverNow: () => number): number | null {
  const [estimate, setEstimate] = useState<{ seconds: number; at: number } | null>(null);
  const at = view.updatedAt === null ? NaN : Date.parse(view.updatedAt);
  let current = estimate;
  if (view.etaSeconds !== null && Number.isFinite(at) && (estimate === null || at > estimate.at)) {
    current = { seconds: view.etaSeconds, at };
    setEstimate(current); // state adjusted while rendering, as in useServerNow
  }
  return current === null ? null : current.seconds - (serverNow() - current.at) / 1000;
}

export type JobTimingProps = {
  view: JobView;
  /** A call to follow the job failed and is being tried again. */
  reconnecting?: boolean;
};

/** "Running 1 min 5 sec · About 40 sec left", each part shown only when known. */
export function JobTiming({ view, reconnecting = false }: JobTimingProps) {
  const t = useMessages();
  const over = isFinished(view.status);
  useTick(!over);
  const serverNow = useServerNow(view.updatedAt);
  const shown = useRef({ waiting: 0, running: 0 });
  const clock = clockOf(view, serverNow);
  const left = useEtaLeft(view, serverNow);
  const seconds = clock === null ? 0 : Math.max(clock.seconds, shown.current[family(clock.kind)]);
  useEffect(() => {
    if (clock !== null) shown.current[family(clock.kind)] = seconds;
  });

  const parts: string[] = [];
  if (clock !== null) parts.push(t[clock.kind](seconds));
  if (view.status === "running" && view.percentage >= 1 && left !== null && Math.round(left) >= 1)
    parts.push(t.eta(left));
  if (reconnecting && !over) parts.push(t.retrying);
  if (parts.length === 0) return null;
  return <p className="gg-timing">{parts.join(" · ")}</p>;
}
