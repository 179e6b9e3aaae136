/**
 * The bulk analysis asked for without a staff list: pick a file, watch it upload, check the
 * preview and start; the job is then followed as any other (<BulkJob>).
 */
import { useEffect, useState } from "react";
import { useStore } from "zustand";
import { FILE_LIMITS, STAFF_FILE_ACCEPT, type AwaitingFile } from "../../../shared/files.js";
import type { Currency } from "../../../shared/money.js";
import { chooseFile, createFileFlow, personLocale, readFile, removeFile, startFromFile } from "../file-flow.js";
import type { Refused } from "../file-flow.js";
import type { FollowTuning } from "../follow-job.js";
import { useHost, useHostGlobal } from "../host-context.js";
import { useMessages } from "../i18n.js";
import { BulkJob } from "./bulk-job.js";
import { Button } from "./button.js";
import { FailureText } from "./failure-text.js";
import { FilePreview } from "./file-preview.js";
import { ProgressBar } from "./progress-bar.js";

export type StaffFileProps = { request: AwaitingFile; tuning?: FollowTuning };

export function StaffFile({ request, tuning }: StaffFileProps) {
  const t = useMessages();
  const host = useHost();
  const locale = useHostGlobal("locale");
  const localeFromHost = useHostGlobal("localeFromHost");
  const [store] = useState(createFileFlow);
  const flow = useStore(store, (s) => s.flow);
  // going away stops an upload in flight and keeps it, for a resume
  useEffect(() => () => store.getState().pick(), [store]);
  const back = () => removeFile(host, store);
  const { currency } = personLocale(request, { locale, localeFromHost });
  const upload = (file: File) => void chooseFile(host, store, file, fileLimit(request), { ...tuning, currency });

  switch (flow.step) {
    case "pick":
      return <FilePicker request={request} currency={currency} refused={flow.refused} onFile={upload} />;
    case "upload":
      return (
        <section className="gg-panel" aria-busy={flow.error === null}>
          <h1 className="gg-title">{t.sending(flow.file.name)}</h1>
          <ProgressBar percentage={flow.chunks > 0 ? (flow.received / flow.chunks) * 100 : 0} label={t.upload} />
          {flow.error && <FailureText error={flow.error} />}
          <div className="gg-actions">
            {flow.error && <Button onClick={() => upload(flow.file)}>{t.tryAgain}</Button>}
            <Button kind="secondary" onClick={back}>
              {t.otherFile}
            </Button>
          </div>
        </section>
      );
    case "preview":
      return (
        <FilePreview
          {...flow}
          onReading={(reading) => void readFile(host, store, { ...reading, currency })}
          onStart={() => void startFromFile(host, store, request)}
          onBack={back}
        />
      );
    case "job":
      return <BulkJob initial={flow.job} startInput={flow.input} tuning={tuning} />;
  }
}

type FilePickerProps = {
  request: AwaitingFile;
  currency: Currency;
  refused: Refused | null;
  onFile(file: File): void;
};

/** The largest file the widget sends: the server's word, never above the shared limit. */
const fileLimit = (request: AwaitingFile) => Math.min(request.maxFileBytes, FILE_LIMITS.maxFileBytes);

function FilePicker({ request, currency, refused, onFile }: FilePickerProps) {
  const t = useMessages();
  const [over, setOver] = useState(false);
  const take = (files: FileList | null) => {
    setOver(false);
    if (files?.[0]) onFile(files[0]);
  };
  return (
    <section className="gg-panel">
      <h1 className="gg-title">{t.jobTitle}</h1>
      <p>{t.fileAsk(request.occasion, t.price(request.budgetPerPerson, currency))}</p>
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
