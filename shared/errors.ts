/** Domain error codes and the payload of an `isError: true` result; protocol errors use the SDK's codes. */
import * as z from "zod/mini";

const ERROR_CODES = [
  "invalid_arguments",
  "no_gift_fits",
  "invalid_csv",
  /** The file is no staff list a reader can open: not a spreadsheet or text, or a broken or unsupported workbook. */
  "unreadable_file",
  "input_too_large",
  "too_many_rows",
  "unknown_job",
  "job_not_finished",
  "interrupted",
  "unauthorized",
  "store_unavailable",
  "quota_exceeded",
  "rate_limited",
  "internal",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ToolErrorSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  hint: z.optional(z.string()),
  /** True when the same call may succeed later as it is (the store is back, the hour has passed). */
  retryable: z.optional(z.boolean()),
});
export type ToolError = z.infer<typeof ToolErrorSchema>;
