/**
 * Reads a request body straight from Node's stream, up to a limit: no web-stream layers, and
 * @hono/node-server's request stays unmaterialized. Why ours: the adapter reads into a string.
 * `readWebBody` is the portable fallback, for a runtime that hands over only the web `Request`.
 */
import type { Readable, Writable } from "node:stream";
import { readRequestBody } from "@modelcontextprotocol/server";

/** Reads the body's bytes, or undefined past `maxBytes`. */
export type BodyReader = (maxBytes: number) => Promise<Uint8Array | undefined>;

/** The web `Request`'s body, as `BodyReader` reads it. */
export async function readWebBody(req: Request, maxBytes: number): Promise<Uint8Array | undefined> {
  const body = await readRequestBody(req, maxBytes);
  return body.tooLarge ? undefined : Buffer.from(body.text);
}

/**
 * The body's bytes, or undefined once past `maxBytes` (the rest drained). A declared length gets one
 * buffer of its own filled chunk by chunk, which the JSON worker then takes whole, uncopied.
 */
export function readNodeBody(
  incoming: Readable & { headers: Record<string, string | string[] | undefined> },
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  const declared = Number(incoming.headers["content-length"]);
  if (declared > maxBytes) {
    incoming.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const whole = Number.isSafeInteger(declared) && declared > 0 ? new Uint8Array(declared) : undefined;
    let size = 0;
    const onData = (chunk: Buffer) => {
      if (whole && size + chunk.length <= whole.length) whole.set(chunk, size);
      else chunks.push(chunk);
      size += chunk.length;
      if (size <= maxBytes) return;
      // Keep reading so the connection stays usable for the 413 answer, but keep nothing.
      chunks.length = 0;
      resolve(undefined);
    };
    incoming.on("data", onData);
    incoming.once("end", () => {
      if (size > maxBytes) return resolve(undefined);
      // a body that says its length truly is held whole; one that says wrong is read as it came
      if (whole && size === whole.length && chunks.length === 0) return resolve(whole);
      resolve(Buffer.concat(whole ? [whole.subarray(0, Math.min(size, whole.length)), ...chunks] : chunks));
    });
    incoming.once("error", reject);
    // A client that goes away mid-body. Every request closes once answered: the error (and its
    // stack, 3 % of a suggest_gifts profile) is made only for a body that never ended.
    incoming.once("close", () => incoming.readableEnded || reject(new Error("The request body was cut off")));
  });
}

/**
 * `req` with a `signal` that aborts when the client goes before the answer, made only when read:
 * the adapter builds the whole web Request on the first read of its own `signal`, and the SDK's
 * 2026-07-28 handler reads it on every call (6 % of a suggest_gifts profile).
 */
export function withCloseSignal(req: Request, outgoing: Writable): Request {
  let controller: AbortController | undefined;
  const signal = () => {
    if (controller) return controller.signal;
    const made = (controller = new AbortController());
    const closed = () => {
      if (!outgoing.writableFinished) made.abort(new Error("The client closed the connection before the answer."));
    };
    if (outgoing.closed) closed();
    else outgoing.once("close", closed);
    return made.signal;
  };
  return Object.create(req, { signal: { get: signal } }) as Request;
}
