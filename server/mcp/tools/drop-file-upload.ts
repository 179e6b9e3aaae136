/** `drop_file_upload` (app-only): an upload the person removed stops holding room in their quota. */
import { DropUploadInput, DropUploadOutput, FILE_TOOL } from "../../../shared/files.js";
import { ok } from "../../outcomes.js";
import { defineTool, type ToolDeps } from "../tool-registry.js";

export const dropFileUploadTool = defineTool(({ files: { uploads } }: ToolDeps) => ({
  name: FILE_TOOL.dropUpload,
  title: "Drop a file upload",
  description:
    `Drops an upload begun with ${FILE_TOOL.beginUpload} and every chunk of it, freeing the room it holds in ` +
    "the caller's stored-bytes quota; an upload already gone answers dropped: false.",
  input: DropUploadInput,
  output: DropUploadOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  ui: { calledByWidget: true, hiddenFromModel: true },
  async run({ uploadId }, { caller }) {
    const dropped = await uploads.drop(uploadId, caller);
    return dropped.ok ? ok({ uploadId, dropped: dropped.value }) : dropped;
  },
  say: (r) => (r.dropped ? `Upload ${r.uploadId} was dropped.` : `No upload ${r.uploadId} was kept; nothing to drop.`),
}));
