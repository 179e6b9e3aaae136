/** `put_file_chunk`: one chunk (base64) of an upload, stored as it comes; answers the chunks held. App-only. */
import { FILE_TOOL, PutChunkInput, UploadStateSchema } from "../../../shared/files.js";
import { toolMeta } from "../../widget.js";
import { answer, defineTool, type ToolDeps } from "../tool-registry.js";

export function putFileChunkTool({ files: { uploads }, widget }: ToolDeps) {
  return defineTool({
    name: FILE_TOOL.putChunk,
    title: "Send a chunk of a file",
    description:
      "Stores chunk `index` (from 0, base64 `data`) of an upload; sending a chunk again replaces it. " +
      `Answers the chunks held; once all are there, ${FILE_TOOL.preview} reads the file.`,
    input: PutChunkInput,
    output: UploadStateSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    meta: toolMeta(widget, { calledByWidget: true, hiddenFromModel: true }),
    async run(args, { caller }) {
      return answer(
        await uploads.putChunk(args, caller),
        (s) => `Upload ${s.uploadId}: ${s.received.length} of ${s.chunks} chunk(s) held.`,
      );
    },
  });
}
