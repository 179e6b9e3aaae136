/**
 * The staff-file picker: a drop zone that is also a file input, the types and size limit in
 * words, and why a file was refused before any byte of it was sent.
 */
import { useState } from "react";
import { FILE_LIMITS, STAFF_FILE_ACCEPT, type AwaitingFile } from "../../../shared/files.js";
import type { Currency } from "../../../shared/money.js";
import { useHostGlobal } from "../host-context.js";
import { formatPrice, useMessages } from "../i18n.js";

export type FilePickerProps = {
  request: AwaitingFile;
  /** The budget's currency (file-flow.ts `requestCurrency`). */
  currency: Currency;
  refused: { name: string; size: number } | null;
  onFile(file: File): void;
};

/** The largest file the widget sends: the server's word, never above the shared limit. */
export const fileLimit = (request: AwaitingFile) => Math.min(request.maxFileBytes, FILE_LIMITS.maxFileBytes);

export function FilePicker({ request, currency, refused, onFile }: FilePickerProps) {
  const t = useMessages();
  const locale = useHostGlobal("locale");
  const [over, setOver] = useState(false);
  const take = (files: FileList | null) => {
    setOver(false);
    if (files?.[0]) onFile(files[0]);
  };
  return (
    <section className="gg-panel">
      <h1 className="gg-title">{t.jobTitle}</h1>
      <p>{t.fileAsk(request.occasion, formatPrice(request.budgetPerPerson, locale, currency))}</p>
      <label
        className="gg-drop"
        data-over={over || undefined}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          take(e.dataTransfer.files);
        }}
      >
        <input
          type="file"
          className="gg-sr"
          accept={STAFF_FILE_ACCEPT}
          onChange={(e) => {
            take(e.target.files);
            e.target.value = ""; // the same file can be chosen again (to resume its upload)
          }}
        />
        <strong>{t.dropFile}</strong>
        <span className="gg-muted">{t.fileKinds(fileLimit(request))}</span>
      </label>
      {refused && (
        <p className="gg-error" role="alert">
          {refused.size === 0 ? t.emptyFile(refused.name) : t.tooLarge(refused.name, refused.size, fileLimit(request))}
        </p>
      )}
    </section>
  );
}
