/**
 * A job's result as a file for the person: `export_job_result` asked for the bytes only where the
 * host takes them (MCP Apps `ui/download-file`), then the file handed to the host its own way; a
 * host with no way at all leaves the widget to show the expiring link.
 */
import { ExportOutput, FILE_TOOL, type EXPORT_FORMATS, type ExportResult } from "../../shared/files.js";
import type { Host } from "./host.js";
import type { ToolOutcome } from "./tool-reply.js";

export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export type ExportPart = "picks" | "skipped";
/** The file, and whether the host took it; when not, the widget shows `file.url`. */
export type Download = { file: ExportResult; delivered: boolean };

/** Exports `part` of `jobId` as `format` and delivers it through `host`. */
export async function downloadResult(
  host: Host,
  jobId: string,
  format: ExportFormat,
  part: ExportPart,
): Promise<ToolOutcome<Download>> {
  const how = host.fileDelivery();
  const reply = await host.callTool(
    FILE_TOOL.exportResult,
    { jobId, format, part, inline: how === "embedded" },
    ExportOutput,
  );
  if (!reply.ok) return reply;
  const delivered = how !== "none" && (await host.deliverFile(reply.value));
  return { ok: true, value: { file: reply.value, delivered } };
}
