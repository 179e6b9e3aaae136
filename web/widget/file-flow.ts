/**
 * A staff file from the picker to its job: a store of pick → upload → preview → job and the actions
 * that call the host. Replies for a file or reading no longer current are ignored (a quick second choice
 * wins); a file the person removes is dropped on the server (it holds quota), one merely left is kept.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import { DropUploadOutput, FILE_TOOL, StaffPreviewSchema } from "../../shared/files.js";
import type { AwaitingFile, Reading, StaffPreview } from "../../shared/files.js";
import { currencyForLocale, type Currency } from "../../shared/money.js";
import type { StartBulkArgs } from "../../shared/tools.js";
import type { FollowedJob } from "./components/bulk-job.js";
import { startAnalysis } from "./follow-job.js";
import type { Host, HostGlobals } from "./host.js";
import { localFailure, type ToolFailure } from "./tool-reply.js";
import { uploadFile, type UploadOptions } from "./upload.js";

export type FileFlowState =
  | { step: "pick"; refused: Refused | null; error: ToolFailure | null }
  | { step: "upload"; file: File; uploadId: string | null; received: number; chunks: number; error: ToolFailure | null }
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

type Step<K extends FileFlowState["step"]> = Extract<FileFlowState, { step: K }>;
export type Refused = { name: string; size: number };

/** The flow and its moves; a move for a file or reading no longer current (`file`, `reading`) changes nothing. */
export type FileFlowStore = {
  flow: FileFlowState;
  pick(refused?: Refused): void;
  upload(file: File): void;
  uploading(file: File, change: Partial<Pick<Step<"upload">, "uploadId" | "received" | "chunks" | "error">>): void;
  uploaded(file: File, uploadId: string): void;
  /** Asks for a preview of `reading` (the current one again when starting). */
  read(reading: Reading): void;
  previewed(reading: Reading, outcome: { preview: StaffPreview } | { error: ToolFailure }): void;
  started(job: FollowedJob, input: StartBulkArgs): void;
};
export type FileFlow = StoreApi<FileFlowStore>;

export const createFileFlow = (): FileFlow =>
  createStore<FileFlowStore>()((set) => {
    const sending = (file: File, next: (flow: Step<"upload">) => FileFlowState) =>
      set((s) => (s.flow.step === "upload" && s.flow.file === file ? { flow: next(s.flow) } : s));
    const previewing = (reading: Reading | null, next: (flow: Step<"preview">) => FileFlowState) =>
      set((s) =>
        s.flow.step === "preview" && (reading ?? s.flow.reading) === s.flow.reading ? { flow: next(s.flow) } : s,
      );
    return {
      flow: { step: "pick", refused: null, error: null },
      pick: (refused) => set({ flow: { step: "pick", refused: refused ?? null, error: null } }),
      upload: (file) => set({ flow: { step: "upload", file, uploadId: null, received: 0, chunks: 0, error: null } }),
      uploading: (file, change) => sending(file, (flow) => ({ ...flow, ...change })),
      uploaded: (file, uploadId) =>
        sending(file, () => ({
          step: "preview",
          uploadId,
          fileName: file.name,
          reading: {},
          preview: null,
          busy: true,
          error: null,
        })),
      read: (reading) => previewing(null, (flow) => ({ ...flow, reading, busy: true, error: null })),
      previewed: (reading, outcome) => previewing(reading, (flow) => ({ ...flow, ...outcome, busy: false })),
      started: (job, input) => set({ flow: { step: "job", job, input } }),
    };
  });

/** Refuses a file over `maxBytes` (or empty) before a byte is sent, else uploads it and asks for its preview. */
export async function chooseFile(
  host: Host,
  store: FileFlow,
  file: File,
  maxBytes: number,
  options: UploadOptions & { currency?: Currency } = {},
): Promise<void> {
  const { pick, upload, uploading, uploaded } = store.getState();
  if (file.size > maxBytes || file.size === 0) return pick(file);
  upload(file);
  const controller = new AbortController();
  const stop = store.subscribe(({ flow }) => {
    if (flow.step !== "upload" || flow.file !== file) controller.abort();
  });
  const reply = await uploadFile(host, file, {
    ...options,
    signal: controller.signal,
    // left before the server's answer came: nothing in the flow knows the id, so it is dropped here
    onBegun: (uploadId) => (controller.signal.aborted ? dropUpload(host, uploadId) : uploading(file, { uploadId })),
    onProgress: (received, chunks) => uploading(file, { received, chunks, error: null }),
  })
    .catch((e: unknown) => ({ ok: false as const, error: localFailure("unreachable", String(e)) }))
    .finally(stop);
  if (!reply.ok) return uploading(file, { error: reply.error });
  uploaded(file, reply.value.uploadId);
  // the budgets read in the job's currency from the first preview on
  await readFile(host, store, options.currency ? { currency: options.currency } : {});
}

/** A failure is left to the server's expiry (10 minutes unfinished). */
function dropUpload(host: Host, uploadId: string): void {
  void host.callTool(FILE_TOOL.dropUpload, { uploadId }, DropUploadOutput).catch(() => {});
}

/** Back to the picker, and the server drops the file (an upload a job started from is not the flow's any more). */
export function removeFile(host: Host, store: FileFlow): void {
  const { flow, pick } = store.getState();
  const uploadId = flow.step === "upload" || flow.step === "preview" ? flow.uploadId : null;
  pick();
  if (uploadId !== null) dropUpload(host, uploadId);
}

export async function readFile(host: Host, store: FileFlow, reading: Reading): Promise<void> {
  const { flow, read, previewed } = store.getState();
  if (flow.step !== "preview") return;
  read(reading);
  const args = { uploadId: flow.uploadId, reading, locale: host.getGlobals().locale };
  const reply = await host.callTool(FILE_TOOL.preview, args, StaffPreviewSchema);
  previewed(reading, reply.ok ? { preview: reply.value } : { error: reply.error });
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
  const { flow, read, previewed, started } = store.getState();
  if (flow.step !== "preview" || flow.busy) return;
  read(flow.reading);
  const input: StartBulkArgs = {
    uploadId: flow.uploadId,
    reading: flow.reading,
    occasion: request.occasion,
    budgetPerPerson: request.budgetPerPerson,
    ...personLocale(request, host.getGlobals()),
  };
  const reply = await startAnalysis(host, input);
  if (reply.ok) started({ jobId: reply.value.jobId, stages: reply.value.stages }, input);
  else previewed(flow.reading, { error: reply.error });
}
