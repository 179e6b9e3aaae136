/**
 * A fetch for the MCP transport that turns a large string body into a Blob in a worker first.
 * `fetch` encodes a string body to UTF-8 on the calling thread: for a tool call carrying a CSV of
 * 5 MB that held the page for 200–600 ms, while a Blob body is handed over in about 1 ms. The
 * string is posted to the worker in a task of its own, apart from the one that serialized the
 * message. Small bodies, and browsers (or tests) without workers, go to fetch unchanged.
 */
import type { FetchLike } from "@modelcontextprotocol/client";

/** Bodies from this many characters on are encoded in the worker. */
const LARGE_BODY = 256 * 1024;

const WORKER_SOURCE = `onmessage = (e) => postMessage({ id: e.data.id, blob: new Blob([e.data.text], { type: e.data.type }) });`;

type Encoded = { id: number; blob: Blob };

function createEncoder(): ((text: string, type: string) => Promise<Blob>) | null {
  if (typeof Worker !== "function" || typeof URL.createObjectURL !== "function") return null;
  let worker: Worker | null = null;
  let nextId = 1;
  const waiting = new Map<number, { resolve(blob: Blob): void; reject(error: Error): void }>();
  const start = () => {
    const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "text/javascript" }));
    const w = new Worker(url);
    URL.revokeObjectURL(url);
    w.onmessage = (e: MessageEvent<Encoded>) => {
      waiting.get(e.data.id)?.resolve(e.data.blob);
      waiting.delete(e.data.id);
    };
    w.onerror = () => {
      for (const p of waiting.values()) p.reject(new Error("The body encoder stopped"));
      waiting.clear();
      worker = null;
      w.terminate();
    };
    return w;
  };
  return (text, type) =>
    new Promise<Blob>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker ??= start();
      worker.postMessage({ id, text, type });
    });
}

/** Wraps `inner` (the page's fetch by default) so large string bodies are encoded off the main thread. */
export function offThreadBodyFetch(inner: FetchLike = (url, init) => fetch(url, init)): FetchLike {
  let encode: ReturnType<typeof createEncoder> | undefined;
  return async (url, init) => {
    const body = init?.body;
    if (typeof body !== "string" || body.length < LARGE_BODY) return inner(url, init);
    encode ??= createEncoder();
    if (!encode) return inner(url, init);
    const type = new Headers(init?.headers).get("content-type") ?? "text/plain;charset=UTF-8";
    await new Promise((resolve) => setTimeout(resolve, 0));
    const blob = await encode(body, type).catch(() => null);
    return inner(url, blob ? { ...init, body: blob } : init);
  };
}
