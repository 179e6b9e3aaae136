/**
 * A realistic event stream for one bulk job (created, started, progress through the stages,
 * completed), used by the fault tests to check that faults never change the reducer's view.
 */
import type { JobEvent } from "../../../shared/job-events.js";

const STAGES = [
  { id: "parse", label: "Reading the CSV" },
  { id: "match", label: "Matching gifts" },
  { id: "rank", label: "Ranking" },
];

/** `progressCount` progress events spread over the stages, between created/started and completed. */
export function jobEventStream(jobId: string, progressCount: number): JobEvent[] {
  let seq = 0;
  const env = () => {
    seq += 1;
    return {
      eventId: `${jobId}-${seq}`,
      jobId,
      seq,
      timestamp: new Date(Date.UTC(2025, 0, 1, 9, 0, seq)).toISOString(),
    };
  };
  const events: JobEvent[] = [
    { ...env(), type: "job.created", payload: { kind: "bulk", title: "Gifts for the team", stages: STAGES } },
    { ...env(), type: "job.started", payload: {} },
  ];
  for (let i = 1; i <= progressCount; i++) {
    const stage = STAGES[Math.min(STAGES.length - 1, Math.floor(((i - 1) * STAGES.length) / progressCount))];
    const percentage = Math.round((i * 99) / progressCount);
    events.push({
      ...env(),
      type: "job.progress",
      payload: { percentage, stage: stage.id, stageLabel: stage.label, processed: i, total: progressCount },
    });
  }
  events.push({
    ...env(),
    type: "job.completed",
    payload: { summary: "Done", resultResourceId: `gifts://jobs/${jobId}/result`, resultCount: 25 },
  });
  return events;
}
