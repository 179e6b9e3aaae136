/** `export_job_result`: a job's picks or skipped rows as CSV or .xlsx behind an expiring link, or inline. */
import { ExportInput, ExportOutput, FILE_LIMITS, FILE_TOOL, type ExportResult } from "../../../shared/files.js";
import { exportResult, type ExportPart } from "../../files/export/export-file.js";
import { XLSX_MIME_TYPE } from "../../files/export/xlsx.js";
import { megabytes, size } from "../../limits.js";
import { count } from "../../outcomes.js";
import { defineTool, type ToolDeps } from "../tool-registry.js";

function describeExport(out: ExportResult, part: ExportPart, inlineRefused: boolean): string {
  const what = out.mimeType === XLSX_MIME_TYPE ? "an .xlsx workbook" : "a CSV file";
  const rows = `${count(out.rows)} ${part === "skipped" ? "skipped row(s)" : out.rows === 1 ? "person" : "people"}`;
  const lines = [
    `Saved ${rows} as ${what}, "${out.fileName}"${out.size === undefined ? "" : ` (${size(out.size)})`}. ` +
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
  run: (args, { caller, origin }) => exportResult({ jobs, fileLinks }, args, caller, origin),
  say: (out, args) => describeExport(out, args.part, args.inline && out.data === undefined),
  links: (out) => [
    {
      type: "resource_link",
      uri: out.url,
      name: out.fileName,
      title: out.fileName,
      description: `Download link, valid until ${new Date(out.expiresAt).toISOString()}.`,
      mimeType: out.mimeType,
    },
  ],
}));
