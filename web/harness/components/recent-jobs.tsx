/**
 * The recent jobs, newest first and kept across reloads: each with its occasion, rows, when and
 * where it started (host, protocol, pace), and "Open", which shows it in a fresh widget as its
 * start would have, with its status as the server has it now. A job the server no longer knows
 * opens on the widget's own error.
 */
import { clockTime } from "../log/clock.js";
import type { RecentJob } from "../recent-jobs.js";
import type { HarnessSession } from "../session.js";
import { useHarness, type HarnessStore } from "../store.js";

const HOST_NAMES = { openai: "ChatGPT", "mcp-apps": "MCP Apps" } as const;

/** Where and how the job started, in one line. */
const detail = (job: RecentJob) =>
  [
    job.rows === null ? null : `${job.rows.toLocaleString("en-US")} rows`,
    clockTime(job.at),
    HOST_NAMES[job.hostKind],
    job.protocol,
    job.paceMs > 0 ? `pace ${job.paceMs} ms` : null,
  ]
    .filter(Boolean)
    .join(" · ");

export function RecentJobs({ store, session }: { store: HarnessStore; session: HarnessSession }) {
  const jobs = useHarness(store, (s) => s.recentJobs);
  const busy = useHarness(store, (s) => s.busy);
  const ready = useHarness(store, (s) => s.connection.status === "ready");
  if (jobs.length === 0) return null;
  return (
    <section className="card" aria-label="Recent jobs">
      <h2>Recent jobs</h2>
      <ol className="recent-jobs">
        {jobs.map((job) => (
          <li key={job.jobId} data-job={job.jobId}>
            <div className="recent-job">
              <span>{job.occasion}</span>
              <em className="muted" title={new Date(job.at).toISOString()}>
                {detail(job)}
              </em>
              <code className="muted">{job.jobId}</code>
            </div>
            <button
              type="button"
              className="button secondary"
              disabled={!ready || busy !== null}
              aria-label={`Open ${job.jobId}`}
              onClick={() => void session.reopenJob(job)}
            >
              Open
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
