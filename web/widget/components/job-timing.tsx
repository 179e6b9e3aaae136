/**
 * How long a job has waited or run ("Waiting", "Running", then "Waited" or "Ran for"), on the server's
 * clock and never going back, and its newest ETA counted down since the event that gave it (a stage's
 * first event carries none), shown while running, past 1 %, with a second or more left.
 */
import { useEffect, useRef, useState } from "react";
import { isFinished, type JobView } from "../../../shared/job-view.js";
import { dotted, useMessages } from "../i18n.js";

function useTick(ticking: boolean): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
}

/**
 * The server's time now: the local clock minus the smallest (arrival − timestamp) seen of the newest
 * event; that gap includes the latency, so it is not ahead of the server, nor before `latestAt`.
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

/** Whole seconds from `from` to `to`, never negative; NaN when either is unknown. */
function secondsBetween(from: string | null, to: string | number | null): number {
  const end = typeof to === "number" ? to : Date.parse(to ?? "");
  return Math.max(0, Math.floor((end - Date.parse(from ?? "")) / 1000));
}

type Clock = { kind: "waiting" | "running" | "waited" | "ran"; seconds: number };

/** The job's clock before clamping; null while its times are unknown. */
function clockOf(view: JobView, serverNow: () => number): Clock | null {
  // a job whose progress came without job.started counts from its creation
  const startedAt = view.startedAt ?? (view.status !== "pending" && view.stage !== null ? view.createdAt : null);
  const finished = isFinished(view.status);
  const end = finished ? view.finishedAt : serverNow();
  const clock: Clock =
    startedAt !== null && (finished || view.status === "running")
      ? { kind: finished ? "ran" : "running", seconds: secondsBetween(startedAt, end) }
      : { kind: finished ? "waited" : "waiting", seconds: secondsBetween(view.createdAt, end) };
  return Number.isNaN(clock.seconds) ? null : clock;
}

/** "waited" goes on from "waiting" and "ran" from "running": each pair is one clock. */
const family = (kind: Clock["kind"]) => (kind === "waiting" || kind === "waited" ? "waiting" : "running");

/** The seconds left by the newest estimate, counted down on the server's clock; null before any. */
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

  const line = dotted(
    clock !== null && t[clock.kind](seconds),
    view.status === "running" && view.percentage >= 1 && left !== null && Math.round(left) >= 1 && t.eta(left),
    reconnecting && !over && t.retrying,
  );
  return line === "" ? null : <p className="gg-timing">{line}</p>;
}
