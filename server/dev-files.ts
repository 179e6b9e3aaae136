/**
 * Development only: this server plays ChatGPT's file service for the harness. `POST /dev/files`
 * (bytes as the body, name in `x-file-name`) keeps the file in memory, bounded, and answers the
 * file object ChatGPT would pass a tool; `GET /dev/files/:id` serves it. Its `download_url` is on
 * the socket's own origin (never the caller's `Host`), which becomes an allowed download origin.
 */
import { randomBytes } from "node:crypto";
import { FILE_LIMITS } from "../shared/files.js";
import { readCapped } from "./files/download.js";
import { echo } from "./files/file-words.js";

export type DevFilesOptions = {
  now?: () => number;
  /** The oldest goes first. */
  maxFiles?: number;
  maxTotalBytes?: number;
};

export type DevFiles = ReturnType<typeof createDevFiles>;

/** `http://<address>:<port>` of the local end of a connection: where this server really listens. */
export function socketOrigin(socket: { localAddress?: string; localPort?: number } | undefined): string | undefined {
  if (socket?.localAddress === undefined || socket.localPort === undefined) return undefined;
  const address = socket.localAddress.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  return new URL(`http://${address.includes(":") ? `[${address}]` : address}:${socket.localPort}`).origin;
}

/** Twice the largest staff file, so the harness can hand over one too large, as a person might. */
const MAX_FILE_BYTES = 2 * FILE_LIMITS.maxFileBytes;
const KEEP_MS = 60 * 60 * 1000;

type Kept = { bytes: Buffer; name: string; mimeType: string; keptAt: number };

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

function nameOf(header: string | null): string {
  try {
    return decodeURIComponent(header ?? "").slice(0, 255) || "staff-file";
  } catch {
    return header?.slice(0, 255) || "staff-file";
  }
}

export function createDevFiles({
  now = Date.now,
  maxFiles = 20,
  maxTotalBytes = 64 * 1024 * 1024,
}: DevFilesOptions = {}) {
  const files = new Map<string, Kept>(); // in insertion order: oldest first
  const origins = new Set<string>();
  const evict = (room: number) => {
    for (const [id, kept] of files) if (kept.keptAt + KEEP_MS <= now()) files.delete(id);
    let total = [...files.values()].reduce((sum, f) => sum + f.bytes.length, 0);
    for (const [id, kept] of files) {
      if (files.size < maxFiles && total + room <= maxTotalBytes) break;
      files.delete(id);
      total -= kept.bytes.length;
    }
  };

  async function post(request: Request, origin: string): Promise<Response> {
    if (Number(request.headers.get("content-length") ?? 0) > MAX_FILE_BYTES) return tooLarge();
    const bytes = await readCapped(request, MAX_FILE_BYTES);
    if (bytes === undefined) return tooLarge();
    if (bytes.length === 0) return json({ error: "empty", message: "The body is empty: send the file's bytes." }, 400);
    evict(bytes.length);
    const id = `file-${randomBytes(12).toString("base64url")}`;
    const name = nameOf(request.headers.get("x-file-name"));
    const mimeType = request.headers.get("content-type") ?? "application/octet-stream";
    files.set(id, { bytes, name, mimeType, keptAt: now() });
    origins.add(origin);
    return json({ download_url: `${origin}/dev/files/${id}`, file_id: id, file_name: name, mime_type: mimeType });
  }

  function get(id: string): Response {
    const kept = files.get(id);
    if (kept === undefined || kept.keptAt + KEEP_MS <= now()) {
      return json({ error: "not_found", message: `No file ${echo(id, 100)}: files are kept an hour.` }, 404);
    }
    return new Response(kept.bytes, {
      headers: {
        "content-type": kept.mimeType,
        "content-length": String(kept.bytes.length),
        "cache-control": "no-store",
      },
    });
  }

  const tooLarge = () =>
    json({ error: "too_large", message: `The file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB.` }, 413);

  return {
    /** The socket origins `POST /dev/files` arrived at: this server's own, for the downloader. */
    origins,
    /** `ownOrigin`: the socket's (`socketOrigin`); without it a file cannot be posted. */
    async handle(request: Request, ownOrigin: string | undefined): Promise<Response> {
      const path = new URL(request.url).pathname;
      if (request.method === "POST" && path === "/dev/files") {
        if (ownOrigin !== undefined) return post(request, ownOrigin);
        return json({ error: "no_origin", message: "This server's own address is not known here." }, 500);
      }
      const id = /^\/dev\/files\/([\w-]+)$/.exec(path)?.[1];
      if (request.method === "GET" && id !== undefined) return get(id);
      return json({ error: "not_found", message: "POST /dev/files with a file, then GET its download_url." }, 404);
    },
  };
}
