/**
 * `export_job_result`: a job's picks (or skipped rows) as a CSV or .xlsx file behind an expiring
 * link (a `resource_link` for hosts that show files); the widget asks for the bytes inline.
 */
import { ExportInput, ExportOutput, FILE_LIMITS, FILE_TOOL, type ExportResult } from "../../../shared/files.js";
import { exportFile, measureFile, type ExportPart } from "../../files/export/export-file.js";
import { XLSX_MIME_TYPE } from "../../files/export/xlsx.js";
import { megabytes } from "../../limits.js";
import { count } from "../../outcomes.js";
import { defineTool, failure, success, type ToolDeps } from "../tool-registry.js";

function describeExport(out: ExportResult, part: ExportPart, inlineRefused: boolean): string {
  const what = out.mimeType === XLSX_MIME_TYPE ? "an .xlsx workbook" : "a CSV file";
  const rows = `${count(out.rows)} ${part === "skipped" ? "skipped row(s)" : "people"}`;
  const lines = [
    `Saved ${rows} as ${what}, "${out.fileName}"${out.size === undefined ? "" : ` (${megabytes(out.size)})`}. ` +
      `Download it within 15 minutes: ${out.url}`,
  ];
  if (out.partial)
    lines.push(`Job ${out.jobId} is still running: the file holds the people ready so far; export again when it ends.`);
  if (inlineRefused)
    lines.push(
      `The file is over ${megabytes(FILE_LIMITS.maxInlineExportBytes)}, too large to return inline: use the link.`,
    );
  return lines.join("\n");
}

export const exportJobResultTool = defineTool(({ jobs, fileLinks }: ToolDeps) => ({
  name: FILE_TOOL.exportResult,
  title: "Export job result",
  description:
    "Saves the result of a bulk gift analysis as a file: `part: picks` (one row per person with up to three " +
    "gifts, each with price, category and reason) or `part: skipped` (the input rows that became no person, " +
    "with why), as `format: csv` or `xlsx`. Answers with a download link that works for 15 minutes; give it " +
    "to the person. While the job runs, the file holds the people ready so far (`partial: true`). Leave " +
    "`inline` false: it returns the file's bytes for the widget.",
  input: ExportInput,
  output: ExportOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: { calledByWidget: true },
  async run({ jobId, format, part, inline }, { caller, origin }) {
    const opened = await jobs.openResult(jobId, caller);
    if (!opened.ok) return failure(opened.error);
    const file = exportFile(opened.value, part, format);
    // the file is built here only to hand its bytes back; a link builds it when it is downloaded
    const { size, bytes } = inline
      ? await measureFile(file.body(), FILE_LIMITS.maxInlineExportBytes)
      : { size: undefined, bytes: undefined };
    const { url, expiresAt } = await fileLinks.issue(
      { jobId, subject: caller.subject, format, part },
      origin,
      file.fileName,
    );
    const out: ExportResult = {
      jobId,
      fileName: file.fileName,
      mimeType: file.mimeType,
      ...(size === undefined ? {} : { size }),
      rows: file.rows,
      partial: opened.value.partial,
      url,
      expiresAt,
      ...(bytes ? { data: bytes.toString("base64") } : {}),
    };
    return success(out, describeExport(out, part, inline && !bytes), [
      {
        type: "resource_link",
        uri: url,
        name: file.fileName,
        title: file.fileName,
        description: `Download link, valid until ${new Date(expiresAt).toISOString()}.`,
        mimeType: file.mimeType,
      },
    ]);
  },
}));
