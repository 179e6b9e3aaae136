/** `put_file_chunk`: one chunk (base64) of an upload, stored as it comes; answers the chunks held. App-only. */
import { FILE_TOOL, PutChunkInput, UploadStateSchema } from "../../../shared/files.js";
import { defineTool, type ToolDeps } from "../tool-registry.js";

export const putFileChunkTool = defineTool(({ files: { uploads } }: ToolDeps) => ({
  name: FILE_TOOL.putChunk,
  title: "Send a chunk of a file",
  description:
    "Stores chunk `index` (from 0, base64 `data`) of an upload; sending a chunk again replaces it. " +
    `Answers the chunks held; once all are there, ${FILE_TOOL.preview} reads the file.`,
  input: PutChunkInput,
  output: UploadStateSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: { calledByWidget: true, hiddenFromModel: true },
  run: (args, { caller }) => uploads.putChunk(args, caller),
  say: (s) => `Upload ${s.uploadId}: ${s.received.length} of ${s.chunks} chunk(s) held.`,
}));
