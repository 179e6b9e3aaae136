/**
 * The jobs the harness saw started, newest first, to open again later (after a reload too): each
 * `start_bulk_gift_analysis` whose result names a job, whether the harness's controls or the
 * widget made the call. A pure list; the store keeps it and persists it.
 */
import * as z from "zod/mini";
import { StartBulkOutput, URI, WaitForJobOutput, type StartBulkResult } from "../../shared/tools.js";
import { HOST_KINDS } from "./bridge/globals.js";
import type { WidgetToolResult } from "./faults/faulty-call.js";
import { PROTOCOLS } from "./mcp/connection.js";

/** Jobs kept. */
const MAX_RECENT_JOBS = 10;
/** Characters of strings past which a job's arguments are not kept (the list is remembered, not its files). */
const KEEP_INPUT_CHARS = 64 * 1024;

const JsonObjectSchema = z.record(z.string(), z.unknown());

export const RecentJobSchema = z.object({
  jobId: z.string(),
  occasion: z.string(),
  /** Rows of the staff list, when the call carried it (a CSV or employees). */
  rows: z.nullable(z.number()),
  /** Epoch milliseconds when it started. */
  at: z.number(),
  hostKind: z.enum(HOST_KINDS),
  protocol: z.enum(PROTOCOLS),
  /** The pace it was started at (0: full speed). */
  paceMs: z.number(),
  /** Its arguments, given to the widget again as toolInput ("Try again"); null when too large to keep. */
  input: z.nullable(JsonObjectSchema),
});
export type RecentJob = z.infer<typeof RecentJobSchema>;

/** Data rows in a CSV: non-blank lines after the header (a rough count, for labels only). */
export const rowCount = (csv: string) => Math.max(0, csv.split(/\r?\n/).filter((l) => l.trim()).length - 1);

/** Characters of the strings in `value`. */
function chars(value: unknown): number {
  if (typeof value === "string") return value.length;
  if (value === null || typeof value !== "object") return 0;
  return Object.values(value).reduce((sum: number, v) => sum + chars(v), 0);
}

/** Arguments small enough to keep, or null. */
export const keepableInput = (input: Record<string, unknown>) => (chars(input) > KEEP_INPUT_CHARS ? null : input);

type StartContext = Pick<RecentJob, "hostKind" | "protocol" | "paceMs">;

/** The job a start call's result names (all but when it started), or null when it names none (an error, a file asked for). */
export function recentJobOf(
  args: Record<string, unknown>,
  structured: unknown,
  context: StartContext,
): Omit<RecentJob, "at"> | null {
  const started = StartBulkOutput.safeParse(structured);
  if (!started.success) return null;
  const rows =
    typeof args.csv === "string" ? rowCount(args.csv) : Array.isArray(args.employees) ? args.employees.length : null;
  return {
    ...context,
    jobId: started.data.jobId,
    occasion: typeof args.occasion === "string" ? args.occasion : "",
    rows,
    input: keepableInput(args),
  };
}

/** `list` with `job` first, once, and at most MAX_RECENT_JOBS. */
export function addRecentJob(list: readonly RecentJob[], job: RecentJob): RecentJob[] {
  return [job, ...list.filter((j) => j.jobId !== job.jobId)].slice(0, MAX_RECENT_JOBS);
}

/**
 * What the widget is given for a job opened again: the result a fresh start would have had, with
 * the job's status and stages as `wait_for_job` (asked without waiting) reports them now. A reply
 * that is not a view (the server no longer knows the job) is given as it came: the widget words
 * that failure itself.
 */
export function reopenedResult(jobId: string, reply: WidgetToolResult): WidgetToolResult {
  const found = WaitForJobOutput.safeParse(reply.structuredContent);
  if (reply.isError || !found.success) return reply;
  const { status, view } = found.data;
  const started: StartBulkResult = {
    jobId,
    status,
    stages: view.stages.map(({ id, label }) => ({ id, label })),
    resultUri: URI.jobResult(jobId),
  };
  return { ...reply, structuredContent: started };
}
