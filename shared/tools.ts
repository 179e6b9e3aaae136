/**
 * Tool names and their input/output schemas: the server registers tools with them and the widget
 * parses what `callTool` returns with them. Each contract is written once, here.
 */
import { z } from "zod";
import { JobEventSchema, StageSchema } from "./job-events.js";
import type { JobView } from "./job-reducer.js";

export const TOOL = {
  suggestGifts: "suggest_gifts",
  startBulk: "start_bulk_gift_analysis",
  getJobEvents: "get_job_events",
  getJobResult: "get_job_result",
  cancelJob: "cancel_job",
  waitForJob: "wait_for_job",
} as const;
export type ToolName = (typeof TOOL)[keyof typeof TOOL];

export const JobStatusSchema = z.enum(["pending", "running", "completed", "failed", "canceled"]);

export const GiftSchema = z.object({
  id: z.string(),
  name: z.string(),
  price: z.number(),
  category: z.string(),
  reason: z.string(),
});
export type Gift = z.infer<typeof GiftSchema>;

// suggest_gifts
export const SuggestGiftsInput = z.object({
  occasion: z.string().min(1).describe("The occasion, e.g. birthday, farewell, wedding, promotion"),
  budget: z.number().positive().describe("Budget per gift, in US dollars"),
  recipient: z.string().optional().describe("Who the gift is for: role, interests, tastes"),
  count: z.number().int().min(1).max(20).optional().describe("How many gifts to suggest (default 5)"),
});
export const SuggestGiftsOutput = z.object({
  occasion: z.string(),
  budget: z.number(),
  gifts: z.array(GiftSchema),
});
export type SuggestGiftsResult = z.infer<typeof SuggestGiftsOutput>;

// start_bulk_gift_analysis
export const EmployeeSchema = z.object({
  name: z.string().min(1),
  department: z.string().optional(),
  interests: z.array(z.string()),
  budget: z.number().positive().optional(),
});
export type Employee = z.infer<typeof EmployeeSchema>;
export const StartBulkInput = z.object({
  csv: z.string().optional().describe("CSV with columns name, department, interests (separated by ; or |), optional budget"),
  employees: z.array(EmployeeSchema).optional().describe("The employees, instead of csv"),
  occasion: z.string().min(1),
  budgetPerPerson: z.number().positive().describe("Default budget per person, in US dollars"),
});
export const StartBulkOutput = z.object({
  jobId: z.string(),
  status: JobStatusSchema,
  stages: z.array(StageSchema),
  resultUri: z.string(),
});
export type StartBulkResult = z.infer<typeof StartBulkOutput>;

/** The reducer's view on the wire; `satisfies` below keeps it equal to `JobView`. */
export const JobViewSchema = z.object({
  jobId: z.string(),
  kind: z.string().nullable(),
  title: z.string().nullable(),
  status: JobStatusSchema,
  percentage: z.number(),
  stage: z.string().nullable(),
  stageLabel: z.string().nullable(),
  message: z.string().nullable(),
  processed: z.number().nullable(),
  total: z.number().nullable(),
  etaSeconds: z.number().nullable(),
  stages: z.array(z.object({ id: z.string(), label: z.string(), state: z.enum(["pending", "active", "done"]) })),
  summary: z.string().nullable(),
  resultResourceId: z.string().nullable(),
  resultCount: z.number().nullable(),
  error: z.object({ code: z.string(), message: z.string(), hint: z.string().optional(), retryable: z.boolean() }).nullable(),
  cancelReason: z.string().nullable(),
  createdAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
  lastSeq: z.number(),
  plan: z.array(StageSchema).nullable(),
  seen: z.array(z.object({ id: z.string(), seq: z.number(), label: z.string() })),
  createdSeq: z.number(),
  startedSeq: z.number(),
  progressSeq: z.number(),
  terminalSeq: z.number(),
});
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const viewMatches: Same<z.infer<typeof JobViewSchema>, JobView> = true;
void viewMatches;

// get_job_events
export const MAX_WAIT_MS = 25_000;
export const GetJobEventsInput = z.object({
  jobId: z.string().min(1),
  afterSeq: z.number().int().min(0).default(0),
  waitMs: z.number().int().min(0).max(MAX_WAIT_MS).default(0),
  limit: z.number().int().min(1).max(1000).default(500),
});
export const GetJobEventsOutput = z.object({
  jobId: z.string(),
  status: JobStatusSchema,
  events: z.array(JobEventSchema),
  nextSeq: z.number().int(),
  done: z.boolean(),
  view: JobViewSchema,
});
export type GetJobEventsResult = z.infer<typeof GetJobEventsOutput>;

// get_job_result
export const PersonResultSchema = z.object({
  row: z.number().int(),
  name: z.string(),
  department: z.string().nullable(),
  interests: z.array(z.string()),
  budget: z.number(),
  gifts: z.array(GiftSchema),
});
export type PersonResult = z.infer<typeof PersonResultSchema>;
export const SkippedRowSchema = z.object({ row: z.number().int(), reason: z.string() });
export type SkippedRow = z.infer<typeof SkippedRowSchema>;
/** The full result of a bulk analysis, as stored and as read from the result resource. */
export const JobResultSchema = z.object({
  jobId: z.string(),
  occasion: z.string(),
  budgetPerPerson: z.number(),
  summary: z.string(),
  people: z.array(PersonResultSchema),
  skipped: z.array(SkippedRowSchema),
});
export type JobResult = z.infer<typeof JobResultSchema>;
export const GetJobResultInput = z.object({
  jobId: z.string().min(1),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(500).default(50),
});
export const GetJobResultOutput = z.object({
  jobId: z.string(),
  summary: z.string(),
  total: z.number().int(),
  offset: z.number().int(),
  nextOffset: z.number().int().nullable(),
  people: z.array(PersonResultSchema),
  skipped: z.array(SkippedRowSchema),
  resultUri: z.string(),
});
export type GetJobResultResult = z.infer<typeof GetJobResultOutput>;

// cancel_job
export const CancelJobInput = z.object({ jobId: z.string().min(1) });
export const CancelJobOutput = z.object({ jobId: z.string(), status: JobStatusSchema, changed: z.boolean() });

// wait_for_job
export const WaitForJobInput = z.object({
  jobId: z.string().min(1),
  timeoutMs: z.number().int().min(0).max(600_000).default(50_000),
});
export const WaitForJobOutput = z.object({ jobId: z.string(), status: JobStatusSchema, done: z.boolean(), view: JobViewSchema });

/** URIs shared by server and widget. */
export const URI = {
  catalog: "gifts://catalog",
  jobResult: (jobId: string) => `gifts://jobs/${jobId}/result`,
  jobResultTemplate: "gifts://jobs/{jobId}/result",
} as const;
