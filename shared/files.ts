/** Staff files in and result files out: the contracts of the upload, preview and export tools. */
import * as z from "zod/mini";
import { CurrencySchema } from "./money.js";

export const FILE_TOOL = {
  beginUpload: "begin_file_upload",
  putChunk: "put_file_chunk",
  dropUpload: "drop_file_upload",
  preview: "preview_staff_file",
  exportResult: "export_job_result",
} as const;

/** Limits both sides state and check: the widget refuses a larger file before sending a byte. */
export const FILE_LIMITS = {
  /** Any format; a UTF-16 CSV is twice its UTF-8 size, hence twice the CSV limit. */
  maxFileBytes: 16 * 1024 * 1024,
  /** Before base64. */
  chunkBytes: 256 * 1024,
  /** A whole upload nobody used is dropped this long after its last chunk, preview or use. */
  abandonedAfterMs: 60 * 60 * 1000,
  /** After its begin or latest chunk (beginning it again does not count). */
  stalledAfterMs: 10 * 60 * 1000,
  /** Largest file `export_job_result` returns inline (base64: a third more); larger ones by link only. */
  maxInlineExportBytes: 12 * 1024 * 1024,
} as const;

export const STAFF_FILE_ACCEPT =
  ".csv,.tsv,.txt,.xlsx,text/csv,text/tab-separated-values,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** A row of the input that became no person, and why: the error ledger. */
export const SkippedRowSchema = z.object({
  row: z.number().check(z.int()),
  /** Kept in a job's result for HR's file. */
  name: z.optional(z.string()),
  department: z.optional(z.string()),
  reason: z.string(),
});
export type SkippedRow = z.infer<typeof SkippedRowSchema>;

/** An upload's or a job's id: `job_` and 22 characters; anything much longer is not one. */
export const IdSchema = z.string().check(z.minLength(1), z.maxLength(100));
/** A BCP 47 language tag, as long as any real one. */
export const LocaleSchema = z.optional(z.string().check(z.maxLength(35)));

const TextEncodingSchema = z.enum(["utf-8", "utf-16le", "utf-16be", "euc-kr", "windows-1252"]);
export type TextEncoding = z.infer<typeof TextEncodingSchema>;

/** Each the index of a header, or -1; `id` is the employee number (사번), a row's identity when it has one. */
export const COLUMN_KEYS = ["name", "department", "interests", "budget", "id"] as const;
export type ColumnKey = (typeof COLUMN_KEYS)[number];
const ColumnIndex = z.number().check(z.int(), z.gte(-1), z.lte(10_000));
const ColumnMapSchema = z.object(
  Object.fromEntries(COLUMN_KEYS.map((key) => [key, ColumnIndex])) as Record<ColumnKey, typeof ColumnIndex>,
);
export type ColumnMap = z.infer<typeof ColumnMapSchema>;

/** Where the person changed what was detected; everything left out is detected. */
export const ReadingSchema = z.object({
  encoding: z.optional(TextEncodingSchema),
  /** By default the sheet whose header best fits a staff list. */
  sheet: z.optional(z.string().check(z.maxLength(200))),
  columns: z.optional(z.partial(ColumnMapSchema)),
  /** Rows without an ID that share a name and department are one person: the first kept, the others skipped. */
  mergeDuplicates: z.optional(z.boolean()),
  /** A budget naming another is skipped, saying so; the locale's by default. */
  currency: z.optional(CurrencySchema),
});
export type Reading = z.infer<typeof ReadingSchema>;

export const BeginUploadInput = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(255)),
  size: z.number().check(z.int(), z.gte(1)),
  /** SHA-256, lowercase hex: checked against the bytes assembled. */
  sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
  mimeType: z.optional(z.string().check(z.maxLength(200))),
});
/** Beginning the same file again returns the same handle with the chunks received: a dropped upload resumes. */
export const UploadStateSchema = z.object({
  uploadId: IdSchema,
  chunkBytes: z.number().check(z.int()),
  chunks: z.number().check(z.int()),
  /** Ascending. */
  received: z.array(z.number().check(z.int())),
  complete: z.boolean(),
});
export type UploadState = z.infer<typeof UploadStateSchema>;

export const PutChunkInput = z.object({
  uploadId: IdSchema,
  index: z.number().check(z.int(), z.gte(0)),
  data: z.string().check(z.maxLength(Math.ceil(FILE_LIMITS.chunkBytes / 3) * 4 + 4)),
});

export const DropUploadInput = z.object({ uploadId: IdSchema });
/** `dropped` is false when no such upload was kept (already dropped, expired, or never the caller's). */
export const DropUploadOutput = z.object({ uploadId: IdSchema, dropped: z.boolean() });

export const PreviewInput = z.object({
  uploadId: IdSchema,
  reading: z.optional(ReadingSchema),
  /** Why rows are skipped is said in it; the host's hint otherwise. */
  locale: LocaleSchema,
});

const SheetSummarySchema = z.object({
  name: z.string(),
  rows: z.number().check(z.int(), z.gte(0)),
  hidden: z.boolean(),
});

const PreviewRowSchema = z.object({
  row: z.number().check(z.int()),
  name: z.string(),
  department: z.string(),
  interests: z.string(),
  budget: z.string(),
  /** 사번, when a column holds them. */
  id: z.optional(z.string()),
});
/** The first few rows that may be one person written twice. */
const DuplicateGroupSchema = z.object({
  rows: z.array(z.number().check(z.int())),
  name: z.string(),
  department: z.string(),
});
export type DuplicateGroup = z.infer<typeof DuplicateGroupSchema>;

/** What the server understood of a file before a job starts; `ready` when no `problems` remain. */
export const StaffPreviewSchema = z.object({
  uploadId: z.nullable(z.string()),
  fileName: z.string(),
  format: z.enum(["csv", "xlsx"]),
  encoding: z.nullable(TextEncodingSchema),
  /** False for a guess, which the preview asks the person to confirm. */
  encodingCertain: z.boolean(),
  separator: z.nullable(z.string()),
  /** In the workbook's order. */
  sheets: z.array(SheetSummarySchema),
  sheet: z.nullable(z.string()),
  headers: z.array(z.string()),
  columns: ColumnMapSchema,
  /** Header and trailing blank lines not counted. */
  rows: z.number().check(z.int()),
  people: z.number().check(z.int()),
  sample: z.array(PreviewRowSchema),
  /** The first rows that will be skipped, with why. */
  skipped: z.array(SkippedRowSchema),
  skippedCount: z.number().check(z.int()),
  /** Rows without an ID sharing name and department, kept apart unless `reading.mergeDuplicates`. */
  possibleDuplicates: z.array(DuplicateGroupSchema),
  possibleDuplicateCount: z.number().check(z.int()),
  problems: z.array(z.string()),
  ready: z.boolean(),
  currency: z.optional(CurrencySchema),
  /** People whose own budget buys no gift in `currency` (often meant in another); absent when none. */
  lowBudgets: z.optional(z.object({ count: z.number(), rows: z.array(z.number()), cheapest: z.number() })),
  /** The currency most of the file's budgets are written in, where it is not `currency`: a problem says so. */
  otherCurrency: z.optional(CurrencySchema),
});
export type StaffPreview = z.infer<typeof StaffPreviewSchema>;

/** A file a host hands a tool (ChatGPT's `openai/fileParams`). */
export const HostFileSchema = z.object({
  download_url: z.string().check(z.maxLength(4096)),
  file_id: z.string().check(z.maxLength(200)),
  /** Its extension tells .xlsx from .csv. */
  file_name: z.optional(z.string().check(z.maxLength(255))),
  mime_type: z.optional(z.string().check(z.maxLength(200))),
});

export const EXPORT_FORMATS = ["csv", "xlsx"] as const;
export const ExportInput = z.object({
  jobId: IdSchema,
  format: z._default(z.enum(EXPORT_FORMATS), "csv"),
  /** One row per gift, or the skipped rows with why. */
  part: z._default(z.enum(["picks", "skipped"]), "picks"),
  /** The bytes (base64) in `data` too, for a view that hands them to its host. */
  inline: z._default(z.boolean(), false),
});
export const ExportOutput = z.object({
  jobId: z.string(),
  fileName: z.string(),
  mimeType: z.string(),
  /** When built for this answer (`inline`); a link's file is built as it is downloaded. */
  size: z.optional(z.number().check(z.int())),
  rows: z.number().check(z.int()),
  /** True while the job still runs: the file holds the people composed so far. */
  partial: z.boolean(),
  /** Anyone holding it can download until `expiresAt` (epoch ms). */
  url: z.string(),
  expiresAt: z.number(),
  data: z.optional(z.string()),
});
export type ExportResult = z.infer<typeof ExportOutput>;

/** `start_bulk_gift_analysis` called without any staff list: the widget asks the person for a file. */
export const AwaitingFileSchema = z.object({
  awaitingFile: z.literal(true),
  occasion: z.string(),
  budgetPerPerson: z.number(),
  locale: z.optional(z.string()),
  currency: z.optional(CurrencySchema),
  maxFileBytes: z.number(),
});
export type AwaitingFile = z.infer<typeof AwaitingFileSchema>;
