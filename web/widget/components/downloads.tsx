/**
 * Download buttons under a result: the picks, and the skipped rows when there are any, as CSV or
 * Excel. The bytes are asked for only where the host takes them (`ui/download-file`); where the
 * host took no file, its link is shown with the time it stops working.
 */
import { useState } from "react";
import { EXPORT_FORMATS, ExportOutput, FILE_TOOL } from "../../../shared/files.js";
import { useHost } from "../host-context.js";
import { useMessages } from "../i18n.js";
import { Button } from "./button.js";
import { FailureText } from "./failure-text.js";
import { useCall } from "./use-call.js";

type ExportFormat = (typeof EXPORT_FORMATS)[number];
type ExportPart = "picks" | "skipped";
export type DownloadsProps = { jobId: string; skipped: boolean };

const FORMAT_NAMES: Record<ExportFormat, string> = { csv: "CSV", xlsx: "Excel (.xlsx)" };

export function Downloads({ jobId, skipped }: DownloadsProps) {
  const t = useMessages();
  const host = useHost();
  // when the host did not take the file, its link is shown
  const [delivered, setDelivered] = useState(false);
  const { busy, outcome, error, run } = useCall(async (format: ExportFormat, part: ExportPart) => {
    const how = host.fileDelivery();
    const inline = how === "embedded";
    const reply = await host.callTool(FILE_TOOL.exportResult, { jobId, format, part, inline }, ExportOutput);
    setDelivered(reply.ok && how !== "none" && (await host.deliverFile(reply.value)));
    return reply;
  });
  const group = (label: string, part: ExportPart) => (
    <div role="group" aria-label={label} className="gg-downloads">
      <span className="gg-muted">{label}</span>
      {EXPORT_FORMATS.map((format) => (
        <Button key={format} kind="secondary" disabled={busy} onClick={() => void run(format, part)}>
          {FORMAT_NAMES[format]}
        </Button>
      ))}
    </div>
  );
  const file = outcome?.ok ? outcome.value : null;
  return (
    <>
      {group(t.downloadPicks, "picks")}
      {skipped && group(t.downloadSkipped, "skipped")}
      {file && (
        <p role="status">
          {delivered ? (
            t.fileReady(file.fileName)
          ) : (
            <>
              <a href={file.url} target="_blank" rel="noreferrer" download={file.fileName}>
                {file.fileName}
              </a>{" "}
              <span className="gg-muted">{t.linkUntil(file.expiresAt)}</span>
            </>
          )}
        </p>
      )}
      {error && <FailureText error={error} />}
    </>
  );
}
