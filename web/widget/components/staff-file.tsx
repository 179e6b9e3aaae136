/**
 * The bulk analysis asked for without a staff list: pick a file, watch it upload, check the
 * preview and start; the job is then followed as any other (<BulkJob>).
 */
import { useEffect, useState } from "react";
import { useStore } from "zustand";
import type { AwaitingFile } from "../../../shared/files.js";
import {
  chooseFile,
  createFileFlow,
  personLocale,
  readFile,
  removeFile,
  requestCurrency,
  startFromFile,
} from "../file-flow.js";
import type { FollowTuning } from "../follow-job.js";
import { useHost, useHostGlobal } from "../host-context.js";
import { useMessages } from "../i18n.js";
import { BulkJob } from "./bulk-job.js";
import { FailureText } from "./failure-text.js";
import { FilePicker, fileLimit } from "./file-picker.js";
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
  // going away stops an upload in flight (the flow leaves its upload step) and keeps it, for a resume
  useEffect(() => () => store.getState().dispatch({ type: "pick" }), [store]);
  // the person removing the file drops it on the server too
  const back = () => removeFile(host, store);
  const currency = requestCurrency(request, personLocale(request, { locale, localeFromHost }));
  const upload = (file: File) =>
    void chooseFile(host, store, file, fileLimit(request), {
      backoff: tuning?.backoff,
      random: tuning?.random,
      currency,
    });

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
            {flow.error && (
              <button type="button" className="gg-button" onClick={() => upload(flow.file)}>
                {t.tryAgain}
              </button>
            )}
            <button type="button" className="gg-button gg-secondary" onClick={back}>
              {t.otherFile}
            </button>
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
