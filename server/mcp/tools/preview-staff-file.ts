/** `preview_staff_file` (app-only): what was understood of an upload; problems in the person's language. */
import { FILE_TOOL, PreviewInput, StaffPreviewSchema } from "../../../shared/files.js";
import { TOOL } from "../../../shared/tools.js";
import { koreanProblem } from "../../files/read/preview-text.js";
import { previewText } from "../../files/read/preview-text.js";
import { currencyForLocale } from "../../../shared/money.js";
import { jobTexts, localeOf, localeTag } from "../../jobs/runner/texts.js";
import { defineTool, failure, success, type ToolDeps } from "../tool-registry.js";

export const previewStaffFileTool = defineTool(({ files }: ToolDeps) => ({
  name: FILE_TOOL.preview,
  title: "Preview a staff file",
  description:
    "Reads a whole upload as a staff list and answers what was understood: the columns mapped, the first rows, " +
    "how many people, the rows that will be skipped and why, and any problem to settle. `reading` changes the " +
    `encoding, sheet or columns. Then ${TOOL.startBulk} with the uploadId and the same reading starts the job.`,
  input: PreviewInput,
  output: StaffPreviewSchema,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: { calledByWidget: true, hiddenFromModel: true },
  async run({ uploadId, reading = {}, locale }, { caller, meta }) {
    const texts = jobTexts(localeOf(locale, meta["openai/locale"]));
    // budgets are read in the person's currency unless the reading names one (ko-KR: won)
    const currency = reading.currency ?? currencyForLocale(localeTag(locale, meta["openai/locale"]));
    const read = await files.preview(uploadId, { ...reading, currency }, caller);
    if (!read.ok) return failure(read.error);
    const preview = read.value;
    const skipped = preview.skipped.map((s) => ({ row: s.row, reason: texts.skipped(s.reason) }));
    const problems = texts.locale === "ko" ? preview.problems.map(koreanProblem) : preview.problems;
    return success({ ...preview, skipped, problems }, previewText(preview));
  },
}));
