/**
 * Reads a request body straight from Node's incoming stream, up to a limit. Faster than going
 * through the web `Request` body (no web-stream layers), and it leaves the lightweight request
 * object of @hono/node-server unmaterialized for the handlers that only read its headers.
 */
import type { Readable } from "node:stream";

/** Resolves the body as text, or undefined as soon as it passes `maxBytes` (the rest is drained). */
export function readNodeBody(
  incoming: Readable & { headers: Record<string, string | string[] | undefined> },
  maxBytes: number,
): Promise<string | undefined> {
  if (Number(incoming.headers["content-length"]) > maxBytes) {
    incoming.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      // Keep reading so the connection stays usable for the 413 answer, but keep nothing.
      chunks.length = 0;
      resolve(undefined);
    };
    incoming.on("data", onData);
    incoming.once("end", () => resolve(size <= maxBytes ? Buffer.concat(chunks, size).toString("utf8") : undefined));
    incoming.once("error", reject);
    // A client that goes away mid-body: settles nothing if the body already ended.
    incoming.once("close", () => reject(new Error("The request body was cut off")));
  });
}
