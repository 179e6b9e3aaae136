/**
 * `preview_staff_file`: what the server understood of an uploaded staff file before a job starts
 * (format, encoding, columns mapped, first rows, people, rows skipped and why). The first call
 * assembles the upload and checks its size and digest; each call may change how it is read
 * (encoding, sheet, columns). Why rows are skipped and what is left to settle are said in the
 * person's language (the `locale` argument, else the host's hint), as a job's result says it; the
 * text for the model stays English. App-only: the model never sees it.
 */
import { FILE_TOOL, PreviewInput, StaffPreviewSchema } from "../../../shared/files.js";
import { TOOL } from "../../../shared/tools.js";
import { koreanProblem } from "../../files/read/preview-text.js";
import { previewText } from "../../files/read/staff-file.js";
import type { StaffFiles } from "../../files/staff-files.js";
import { currencyForLocale } from "../../../shared/money.js";
import { jobTexts, localeOf, localeTag } from "../../jobs/runner/texts.js";
import { toolMeta, type Widget } from "../../widget.js";
import { defineTool } from "../tool-registry.js";
import { fromOutcome, success } from "../tool-results.js";

export function previewStaffFileTool({ files, widget }: { files: StaffFiles; widget: Widget }) {
  return defineTool({
    name: FILE_TOOL.preview,
    title: "Preview a staff file",
    description:
      "Reads a whole upload as a staff list and answers what was understood: the columns mapped, the first rows, " +
      "how many people, the rows that will be skipped and why, and any problem to settle. `reading` changes the " +
      `encoding, sheet or columns. Then ${TOOL.startBulk} with the uploadId and the same reading starts the job.`,
    input: PreviewInput,
    output: StaffPreviewSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    meta: toolMeta(widget, { calledByWidget: true, hiddenFromModel: true }),
    async run({ uploadId, reading = {}, locale }, { caller, meta }) {
      const texts = jobTexts(localeOf(locale, meta["openai/locale"]));
      // budgets are read in the person's currency unless the reading names one (ko-KR: won)
      const currency = reading.currency ?? currencyForLocale(localeTag(locale, meta["openai/locale"]));
      return fromOutcome(await files.preview(uploadId, { ...reading, currency }, caller), (preview) => {
        const skipped = preview.skipped.map((s) => ({ row: s.row, reason: texts.skipped(s.reason) }));
        const problems = texts.locale === "ko" ? preview.problems.map(koreanProblem) : preview.problems;
        return success({ ...preview, skipped, problems }, previewText(preview));
      });
    },
  });
}
