/**
 * Elapsed time and ETA of a job. Elapsed counts from the server's start time; while the job
 * runs a one-second clock re-renders it, and stops when the job ends or the widget unmounts.
 */
import { useEffect, useState } from "react";
import { isFinished, type JobView } from "../../../shared/job-view.js";
import { useMessages } from "../i18n.js";

/** The current time, refreshed every second while `ticking`. */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

export type JobTimingProps = { view: JobView };

/** "Elapsed m:ss · About m:ss left", each part shown only when known. */
export function JobTiming({ view }: JobTimingProps) {
  const t = useMessages();
  const over = isFinished(view.status);
  const now = useNow(!over);
  const since = Date.parse(view.startedAt ?? view.createdAt ?? "");
  const until = over && view.finishedAt !== null ? Date.parse(view.finishedAt) : now;
  const parts: string[] = [];
  if (Number.isFinite(since) && Number.isFinite(until)) parts.push(t.elapsed((until - since) / 1000));
  if (!over && view.etaSeconds !== null) parts.push(t.eta(view.etaSeconds));
  if (!over && view.processed !== null && view.total !== null) parts.push(t.counts(view.processed, view.total));
  if (parts.length === 0) return null;
  return <p className="gg-timing">{parts.join(" · ")}</p>;
}
