/**
 * A staff file from the picker to its job: a reducer over pick → upload → preview → job and the actions
 * that call the host. Replies for a file or reading no longer current are ignored (a quick second choice
 * wins); a file the person removes is dropped on the server (it holds quota), one merely left is kept.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import {
  DropUploadOutput,
  FILE_TOOL,
  StaffPreviewSchema,
  type AwaitingFile,
  type Reading,
  type StaffPreview,
} from "../../shared/files.js";
import { currencyForLocale, type Currency } from "../../shared/money.js";
import type { StartBulkArgs } from "../../shared/tools.js";
import type { FollowedJob } from "./components/bulk-job.js";
import { startAnalysis } from "./follow-job.js";
import type { Host, HostGlobals } from "./host.js";
import { localFailure, type ToolFailure } from "./tool-reply.js";
import { uploadFile, type UploadOptions } from "./upload.js";

export type FileFlowState =
  | { step: "pick"; refused: { name: string; size: number } | null; error: ToolFailure | null }
  | {
      step: "upload";
      file: File;
      uploadId: string | null;
      received: number;
      chunks: number;
      error: ToolFailure | null;
    }
  | {
      step: "preview";
      uploadId: string;
      fileName: string;
      /** The preview shown is for this reading once `busy` is over. */
      reading: Reading;
      preview: StaffPreview | null;
      busy: boolean;
      error: ToolFailure | null;
    }
  | { step: "job"; job: FollowedJob; input: StartBulkArgs };

type FileAction =
  | { type: "pick"; refused?: { name: string; size: number } }
  | { type: "upload"; file: File }
  | { type: "begun"; file: File; uploadId: string }
  | { type: "progress"; file: File; received: number; chunks: number }
  | { type: "uploadFailed"; file: File; error: ToolFailure }
  | { type: "uploaded"; file: File; uploadId: string }
  | { type: "read"; reading: Reading }
  | { type: "previewed"; reading: Reading; preview: StaffPreview }
  | { type: "failed"; reading: Reading; error: ToolFailure }
  | { type: "starting" }
  | { type: "started"; job: FollowedJob; input: StartBulkArgs };

export function reduceFileFlow(s: FileFlowState, a: FileAction): FileFlowState {
  const uploading = s.step === "upload" && "file" in a && s.file === a.file ? s : null;
  const previewing = s.step === "preview" ? s : null;
  switch (a.type) {
    case "pick":
      return { step: "pick", refused: a.refused ?? null, error: null };
    case "upload":
      return { step: "upload", file: a.file, uploadId: null, received: 0, chunks: 0, error: null };
    case "begun":
      return uploading ? { ...uploading, uploadId: a.uploadId } : s;
    case "progress":
      return uploading ? { ...uploading, received: a.received, chunks: a.chunks, error: null } : s;
    case "uploadFailed":
      return uploading ? { ...uploading, error: a.error } : s;
    case "uploaded":
      return uploading
        ? {
            step: "preview",
            uploadId: a.uploadId,
            fileName: a.file.name,
            reading: {},
            preview: null,
            busy: true,
            error: null,
          }
        : s;
    case "read":
      return previewing ? { ...previewing, reading: a.reading, busy: true, error: null } : s;
    case "previewed":
      return previewing?.reading === a.reading ? { ...previewing, preview: a.preview, busy: false } : s;
    case "failed":
      return previewing?.reading === a.reading ? { ...previewing, busy: false, error: a.error } : s;
    case "starting":
      return previewing ? { ...previewing, busy: true, error: null } : s;
    case "started":
      return { step: "job", job: a.job, input: a.input };
    default: {
      const never: never = a;
      return never;
    }
  }
}

export type FileFlow = StoreApi<{ flow: FileFlowState; dispatch(action: FileAction): void }>;

export const createFileFlow = (): FileFlow =>
  createStore<{ flow: FileFlowState; dispatch(action: FileAction): void }>()((set) => ({
    flow: { step: "pick", refused: null, error: null },
    dispatch: (action) => set((s) => ({ flow: reduceFileFlow(s.flow, action) })),
  }));

/** Refuses a file over `maxBytes` (or empty) before a byte is sent, else uploads it and asks for its preview. */
export async function chooseFile(
  host: Host,
  store: FileFlow,
  file: File,
  maxBytes: number,
  options: UploadOptions & { currency?: Currency } = {},
): Promise<void> {
  const { dispatch } = store.getState();
  if (file.size > maxBytes || file.size === 0) return dispatch({ type: "pick", refused: file });
  dispatch({ type: "upload", file });
  const controller = new AbortController();
  const stop = store.subscribe(({ flow }) => {
    if (flow.step !== "upload" || flow.file !== file) controller.abort();
  });
  const reply = await uploadFile(host, file, {
    ...options,
    signal: controller.signal,
    // left before the server's answer came: nothing in the flow knows the id, so it is dropped here
    onBegun: (uploadId) =>
      controller.signal.aborted ? dropUpload(host, uploadId) : dispatch({ type: "begun", file, uploadId }),
    onProgress: (received, chunks) => dispatch({ type: "progress", file, received, chunks }),
  })
    .catch((e: unknown) => ({ ok: false as const, error: localFailure("unreachable", String(e)) }))
    .finally(stop);
  if (!reply.ok) return dispatch({ type: "uploadFailed", file, error: reply.error });
  dispatch({ type: "uploaded", file, uploadId: reply.value.uploadId });
  // the budgets read in the job's currency from the first preview on
  await readFile(host, store, options.currency ? { currency: options.currency } : {});
}

/** A failure is left to the server's expiry (10 minutes unfinished). */
function dropUpload(host: Host, uploadId: string): void {
  void host.callTool(FILE_TOOL.dropUpload, { uploadId }, DropUploadOutput).catch(() => {});
}

/** Back to the picker, and the server drops the file (an upload a job started from is not the flow's any more). */
export function removeFile(host: Host, store: FileFlow): void {
  const { flow, dispatch } = store.getState();
  const uploadId = flow.step === "upload" || flow.step === "preview" ? flow.uploadId : null;
  dispatch({ type: "pick" });
  if (uploadId !== null) dropUpload(host, uploadId);
}

export async function readFile(host: Host, store: FileFlow, reading: Reading): Promise<void> {
  const { flow, dispatch } = store.getState();
  if (flow.step !== "preview") return;
  dispatch({ type: "read", reading });
  const { locale } = host.getGlobals();
  const reply = await host.callTool(
    FILE_TOOL.preview,
    { uploadId: flow.uploadId, reading, locale },
    StaffPreviewSchema,
  );
  dispatch(
    reply.ok ? { type: "previewed", reading, preview: reply.value } : { type: "failed", reading, error: reply.error },
  );
}

/**
 * The person's language, as their host says it over the model's word (`request.locale`), and the
 * currency of the request's budget: the one the model gave, else that language's (ko-KR: won).
 */
export function personLocale(request: AwaitingFile, globals: Pick<HostGlobals, "locale" | "localeFromHost">) {
  const locale = globals.localeFromHost ? globals.locale : (request.locale ?? globals.locale);
  return { locale, currency: request.currency ?? currencyForLocale(locale) };
}

export async function startFromFile(host: Host, store: FileFlow, request: AwaitingFile) {
  const { flow, dispatch } = store.getState();
  if (flow.step !== "preview" || flow.busy) return;
  dispatch({ type: "starting" });
  const input: StartBulkArgs = {
    uploadId: flow.uploadId,
    reading: flow.reading,
    occasion: request.occasion,
    budgetPerPerson: request.budgetPerPerson,
    ...personLocale(request, host.getGlobals()),
  };
  const reply = await startAnalysis(host, input);
  dispatch(
    reply.ok
      ? { type: "started", job: { jobId: reply.value.jobId, stages: reply.value.stages }, input }
      : { type: "failed", reading: flow.reading, error: reply.error },
  );
}
