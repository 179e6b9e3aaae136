/**
 * Plays ChatGPT's file service for the harness's ChatGPT mode: the file a person attached is
 * POSTed to the development server's `/dev/files` (GIFTGENIUS_DEV=1; its name percent-encoded in
 * `x-file-name`), which keeps it and answers the `{ download_url, file_id }` that ChatGPT passes
 * to a tool declared with `openai/fileParams`; the server then downloads it as it would ChatGPT's.
 */
import * as z from "zod/mini";
import { HostFileSchema } from "../../../shared/files.js";

export type HostFile = z.infer<typeof HostFileSchema>;

const Refusal = z.object({ message: z.string() });

/** Hands `file` to the server at `origin`; rejects with the server's sentence when it refuses. */
export async function handOverFile(origin: string, file: File, fetcher: typeof fetch = fetch): Promise<HostFile> {
  const response = await fetcher(new URL("/dev/files", origin), {
    method: "POST",
    headers: {
      "x-file-name": encodeURIComponent(file.name),
      "content-type": file.type || "application/octet-stream",
    },
    body: file,
  });
  const body: unknown = await response.json().catch(() => null);
  const handed = HostFileSchema.safeParse(body);
  if (response.ok && handed.success) return handed.data;
  const refusal = Refusal.safeParse(body);
  throw new Error(
    !response.ok && refusal.success
      ? `The file service refused ${file.name}: ${refusal.data.message}`
      : "This server plays no file service: start it with GIFTGENIUS_DEV=1 (npm start does).",
  );
}
