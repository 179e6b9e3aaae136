/** Tool names, input and output schemas, and URIs shared by server and widget (zod/mini, for the bundle). */
import * as z from "zod/mini";
import { FILE_TOOL, HostFileSchema, IdSchema, LocaleSchema, ReadingSchema, SkippedRowSchema } from "./files.js";
import { JobEventSchema, StageSchema } from "./job-events.js";
import { JobStatusSchema, JobViewSchema } from "./job-view.js";
import { CurrencySchema } from "./money.js";

/** Enough for any real one, never a megabyte echoed back. */
const OccasionSchema = z.string().check(z.minLength(1), z.maxLength(120));
const MAX_RECIPIENT = 2_000;
const CURRENCY_WORDS =
  "The currency of the budgets and prices (ISO 4217: KRW, USD, EUR, JPY, GBP); the user's locale decides when left out (ko-KR: KRW, en-US: USD)";

const localeFor = (what: string) =>
  LocaleSchema.check(z.describe(`The user's language as a BCP 47 tag, e.g. ko-KR: ${what} use it`));

export const TOOL = {
  suggestGifts: "suggest_gifts",
  startBulk: "start_bulk_gift_analysis",
  getJobEvents: "get_job_events",
  getJobResult: "get_job_result",
  getJobTable: "get_job_table",
  cancelJob: "cancel_job",
  waitForJob: "wait_for_job",
  deleteJob: "delete_job",
  listJobs: "list_jobs",
  showJob: "show_job",
  claimFollowUp: "claim_job_follow_up",
} as const;
export type ToolName = (typeof TOOL)[keyof typeof TOOL] | (typeof FILE_TOOL)[keyof typeof FILE_TOOL];

export const GiftSchema = z.object({
  id: z.string(),
  name: z.string(),
  price: z.number(),
  category: z.string(),
  reason: z.string(),
});
export type Gift = z.infer<typeof GiftSchema>;

export const SuggestGiftsInput = z.object({
  occasion: OccasionSchema.check(z.describe("The occasion, e.g. birthday, farewell, wedding, promotion")),
  budget: z.number().check(z.positive()).check(z.describe("Budget per gift, in `currency`")),
  recipient: z
    .optional(z.string().check(z.maxLength(MAX_RECIPIENT)))
    .check(z.describe("Who the gift is for: role, interests, tastes")),
  count: z
    .optional(z.number().check(z.int(), z.gte(1), z.lte(20)))
    .check(z.describe("How many gifts to suggest (default 5)")),
  locale: localeFor("the gifts' names and reasons"),
  currency: z.optional(CurrencySchema).check(z.describe(CURRENCY_WORDS)),
});
export const SuggestGiftsOutput = z.object({
  occasion: z.string(),
  budget: z.number(),
  /** Absent from answers made before currencies: US dollars. */
  currency: z.optional(CurrencySchema),
  gifts: z.array(GiftSchema),
});
export type SuggestGiftsResult = z.infer<typeof SuggestGiftsOutput>;

const EmployeeSchema = z.object({
  name: z.string().check(z.minLength(1)),
  department: z.optional(z.string()),
  interests: z.array(z.string()),
  budget: z.optional(z.number().check(z.positive())),
  /** The employee number (사번): the same one is one person. */
  id: z.optional(z.string().check(z.maxLength(100))),
});
export const StartBulkInput = z.object({
  csv: z
    .optional(z.string())
    .check(
      z.describe(
        "CSV text with a header: name and interests (items separated by ; | , or /), optional department, budget and employee ID (사번: rows with the same ID are one person); headers in English or Korean (이름, 부서, 관심사, 예산), separated by commas, semicolons or tabs",
      ),
    ),
  employees: z.optional(z.array(EmployeeSchema)).check(z.describe("The employees, instead of csv")),
  file: z
    .optional(HostFileSchema)
    .check(z.describe("The staff list as a file the user attached (.xlsx or .csv), instead of csv or employees")),
  uploadId: z.optional(IdSchema).check(z.describe("A file the widget uploaded (set by the widget, not by the model)")),
  reading: z
    .optional(ReadingSchema)
    .check(
      z.describe(
        "How to read the file where the preview was changed: encoding, sheet, columns; mergeDuplicates to read namesakes the preview flagged as one person",
      ),
    ),
  occasion: OccasionSchema,
  budgetPerPerson: z.number().check(z.positive()).check(z.describe("Default budget per person, in `currency`")),
  locale: localeFor("the job's labels and summary"),
  currency: z.optional(CurrencySchema).check(z.describe(CURRENCY_WORDS)),
});
export type StartBulkArgs = z.infer<typeof StartBulkInput>;
/** A fresh UUID per widget result, under which the widget keeps that card's state (MCP Apps' view state pattern). */
export const VIEW_ID_META_KEY = "viewUUID";
export const StartBulkOutput = z.object({
  jobId: z.string(),
  status: JobStatusSchema,
  stages: z.array(StageSchema),
  resultUri: z.string(),
  currency: z.optional(CurrencySchema),
  /** Set when the start is seen again finished: the result of a task (2026-07-28's Tasks extension). */
  summary: z.optional(z.nullable(z.string())),
  resultCount: z.optional(z.nullable(z.number())),
});
export type StartBulkResult = z.infer<typeof StartBulkOutput>;

const MAX_WAIT_MS = 25_000;
export const GetJobEventsInput = z.object({
  jobId: IdSchema,
  afterSeq: z._default(z.number().check(z.int(), z.gte(0)), 0),
  waitMs: z._default(z.number().check(z.int(), z.gte(0), z.lte(MAX_WAIT_MS)), 0),
  limit: z._default(z.number().check(z.int(), z.gte(1), z.lte(1000)), 500),
});
export const GetJobEventsOutput = z.object({
  jobId: z.string(),
  status: JobStatusSchema,
  events: z.array(JobEventSchema),
  nextSeq: z.number().check(z.int()),
  done: z.boolean(),
});
export type GetJobEventsResult = z.infer<typeof GetJobEventsOutput>;

const PersonResultSchema = z.object({
  row: z.number().check(z.int()),
  name: z.string(),
  department: z.nullable(z.string()),
  interests: z.array(z.string()),
  budget: z.number(),
  gifts: z.array(GiftSchema),
});
export type PersonResult = z.infer<typeof PersonResultSchema>;
/** "" is no department, "…" the departments past the first few dozen, summed. */
const DepartmentFiguresSchema = z.object({
  department: z.string(),
  people: z.number().check(z.int(), z.gte(0)),
  budget: z.number().check(z.gte(0)),
  topPicks: z.number().check(z.gte(0)),
});
export type DepartmentFigures = z.infer<typeof DepartmentFiguresSchema>;
/** Interests the catalog does not know: how many, and the most written, for the person to fix the list. */
const UnplacedInterestsSchema = z.object({
  count: z.number().check(z.int(), z.gte(1)),
  names: z.array(z.string()),
});
export type UnplacedInterests = z.infer<typeof UnplacedInterestsSchema>;
/** A finished result in figures, for views to word in their own language; no `currency`: US dollars. */
export const ResultFiguresSchema = z.object({
  currency: z.optional(CurrencySchema),
  people: z.number().check(z.int(), z.gte(0)),
  withGifts: z.number().check(z.int(), z.gte(0)),
  skipped: z.number().check(z.int(), z.gte(0)),
  topPicks: z.number().check(z.gte(0)),
  budget: z.number().check(z.gte(0)),
  unplaced: z.optional(UnplacedInterestsSchema),
  /** The largest cost first; absent from results stored before departments were counted. */
  departments: z.optional(z.array(DepartmentFiguresSchema)),
});
export type ResultFigures = z.infer<typeof ResultFiguresSchema>;
/** One part of a finished result as its resource serves it, with the next part's URI (or null). */
export const JobResultPageSchema = z.object({
  jobId: z.string(),
  occasion: z.string(),
  budgetPerPerson: z.number(),
  currency: z.optional(CurrencySchema),
  summary: z.string(),
  total: z.number().check(z.int()),
  offset: z.number().check(z.int()),
  people: z.array(PersonResultSchema),
  skipped: z.array(SkippedRowSchema),
  next: z.nullable(z.string()),
});
export type JobResultPage = z.infer<typeof JobResultPageSchema>;
const pageInput = (max: number, byDefault: number) =>
  z.object({
    jobId: IdSchema,
    offset: z._default(z.number().check(z.int(), z.gte(0)), 0),
    limit: z._default(z.number().check(z.int(), z.gte(1), z.lte(max)), byDefault),
  });
export const GetJobResultInput = /* @__PURE__ */ pageInput(500, 50);
/** A page of a job's people from `offset`; `partial` while the job still runs: the people composed so far. */
const pageOutput = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.object({
    jobId: z.string(),
    total: z.number().check(z.int()),
    offset: z.number().check(z.int()),
    nextOffset: z.nullable(z.number().check(z.int())),
    partial: z.boolean(),
    ...shape,
  });
export const GetJobResultOutput = /* @__PURE__ */ pageOutput({
  currency: z.optional(CurrencySchema),
  summary: z.string(),
  people: z.array(PersonResultSchema),
  skipped: z.array(SkippedRowSchema),
  resultUri: z.string(),
  /** Absent while it runs. */
  figures: z.optional(ResultFiguresSchema),
});
export type GetJobResultResult = z.infer<typeof GetJobResultOutput>;

export const GetJobTableInput = /* @__PURE__ */ pageInput(5_000, 5_000);
/** Row, name, department, budget, top pick's name and price (null when none fit): a tuple, 5,000 a reply. */
const TableRowSchema = z.tuple([
  z.number(),
  z.string(),
  z.nullable(z.string()),
  z.number(),
  z.nullable(z.string()),
  z.nullable(z.number()),
]);
export type TableRow = z.infer<typeof TableRowSchema>;
export function tableRowOf({ row, name, department, budget, gifts: [top] }: PersonResult): TableRow {
  return [row, name, department, budget, top?.name ?? null, top?.price ?? null];
}
export const GetJobTableOutput = /* @__PURE__ */ pageOutput({ rows: z.array(TableRowSchema) });

/** The input of the tools that take only a job: cancel, delete, show and claim its follow-up. */
export const JobIdInput = z.object({ jobId: IdSchema });
export const CancelJobOutput = z.object({ jobId: z.string(), status: JobStatusSchema, changed: z.boolean() });

export const DeleteJobOutput = z.object({
  jobId: z.string(),
  /** The job was still running, so it was canceled before it was deleted. */
  canceled: z.boolean(),
});

export const WaitForJobInput = z.object({
  jobId: IdSchema,
  timeoutMs: z._default(z.number().check(z.int(), z.gte(0), z.lte(600_000)), 50_000),
});
export const WaitForJobOutput = z.object({
  jobId: z.string(),
  status: JobStatusSchema,
  done: z.boolean(),
  view: JobViewSchema,
});

export const URI = {
  catalog: "gifts://catalog",
  jobResult: (jobId: string) => `gifts://jobs/${jobId}/result`,
  jobResultTemplate: "gifts://jobs/{jobId}/result",
  /** The result itself is offset 0. */
  jobResultPage: (jobId: string, offset: number) => `gifts://jobs/${jobId}/result?offset=${offset}`,
  jobResultPageTemplate: "gifts://jobs/{jobId}/result?offset={offset}",
  /** The same parts as CSV; `offset` is left out for the first. */
  jobResultCsv: (jobId: string, offset = 0) => `gifts://jobs/${jobId}/result.csv${offset ? `?offset=${offset}` : ""}`,
  jobResultCsvTemplate: "gifts://jobs/{jobId}/result.csv{?offset}",
} as const;

export const ListJobsInput = z.object({
  cursor: z
    .optional(z.string().check(z.minLength(1), z.maxLength(200)))
    .check(z.describe("The `nextCursor` of the page before, for older jobs")),
  limit: z._default(z.number().check(z.int(), z.gte(1), z.lte(50)), 10),
});
/** Never a name from its staff list. */
const JobSummarySchema = z.object({
  jobId: z.string(),
  title: z.nullable(z.string()),
  status: JobStatusSchema,
  percentage: z.number(),
  /** The running stage's label. */
  stage: z.nullable(z.string()),
  /** As the last progress event said. */
  processed: z.nullable(z.number()),
  total: z.nullable(z.number()),
  resultCount: z.nullable(z.number()),
  currency: z.optional(CurrencySchema),
  createdAt: z.string(),
  endedAt: z.nullable(z.string()),
});
export type JobSummary = z.infer<typeof JobSummarySchema>;
export const ListJobsOutput = z.object({
  jobs: z.array(JobSummarySchema),
  /** For the next (older) page; null on the last. */
  nextCursor: z.nullable(z.string()),
});

/** show_job: the card again, as the start's (the widget follows its events); `summary` and `resultCount` once ended. */
export const ShowJobOutput = /* @__PURE__ */ StartBulkOutput.clone();

// claim_job_follow_up (the widget's): true for exactly one caller per job, the card that tells the chat it ended
export const ClaimFollowUpOutput = z.object({ jobId: z.string(), claimed: z.boolean() });
