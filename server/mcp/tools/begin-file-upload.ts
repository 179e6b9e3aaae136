/** `begin_file_upload` (app-only): a staff file's upload handle; the same file again resumes with the chunks held. */
import { BeginUploadInput, FILE_LIMITS, FILE_TOOL, UploadStateSchema } from "../../../shared/files.js";
import { megabytes } from "../../limits.js";
import { defineTool, type ToolDeps } from "../tool-registry.js";

export const beginFileUploadTool = defineTool(({ files: { uploads } }: ToolDeps) => ({
  name: FILE_TOOL.beginUpload,
  title: "Begin a file upload",
  description:
    `Begins (or resumes) the upload of a staff file of up to ${megabytes(FILE_LIMITS.maxFileBytes)}, sent ` +
    `afterwards in chunks of chunkBytes with ${FILE_TOOL.putChunk}; answers which chunks the server already holds.`,
  input: BeginUploadInput,
  output: UploadStateSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: { calledByWidget: true, hiddenFromModel: true },
  run: (args, { caller }) => uploads.begin(args, caller),
  say: (s) => `Upload ${s.uploadId}: ${s.received.length} of ${s.chunks} chunk(s) of ${s.chunkBytes} bytes held.`,
}));
