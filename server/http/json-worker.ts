/**
 * Parses a large request body in a worker thread, so a 10 MB body of a million strings does not
 * hold the event loop for the second its JSON.parse takes: the bytes are decoded and parsed there, the
 * nesting checked, and the value comes back in slices (json-slices.ts). The worker's code is a string run with
 * `eval: true`: it needs no transpiling, so the very same code runs under tsx and vitest (which
 * start no worker from a .ts file) and from the tsc build (which would not copy a .js file).
 *
 * Why ours: the SDK parses every body on the event loop.
 */
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import { isSlice, rebuild } from "./json-slices.js";

export type ParsedElsewhere =
  | { kind: "parsed"; value: unknown }
  | { kind: "invalid"; error: string }
  | { kind: "deeper" }
  | { kind: "busy" }
  | { kind: "failed" };

/** Bodies waiting for or in the worker; past this, a request is asked to retry (each may be MBs). */
const MAX_QUEUED = 8;

/**
 * CommonJS (what `eval: true` runs). Its depth walk is `nestedDeeper` of http-body.ts; the walk
 * that slices may recurse, the depth being checked first. A slice holds about 32,768 values.
 */
const SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const limit = workerData.maxDepth;
function nestedDeeper(value) {
  const stack = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [v, depth] = next;
    if (typeof v !== "object" || v === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}
function send(value, port) {
  let shape = [], values = [], count = 0;
  const flush = () => {
    const slice = Int32Array.from(shape);
    port.postMessage({ shape: slice, values }, [slice.buffer]);
    shape = [];
    values = [];
    count++;
  };
  const walk = (v) => {
    if (Array.isArray(v)) {
      shape.push(1, v.length);
      for (const member of v) walk(member);
    } else if (typeof v === "object" && v !== null) {
      const keys = Object.keys(v);
      shape.push(2, keys.length);
      for (const key of keys) values.push(key), walk(v[key]);
    } else shape.push(0), values.push(v);
    if (values.length >= 32768 || shape.length >= 65536) flush();
  };
  walk(value);
  if (shape.length > 0) flush();
  port.close();
  return count;
}
parentPort.on("message", ({ id, bytes, port }) => {
  let value;
  try {
    value = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
  } catch (error) {
    port.close();
    parentPort.postMessage({ id, kind: "invalid", error: String(error) });
    return;
  }
  if (nestedDeeper(value)) port.close(), parentPort.postMessage({ id, kind: "deeper" });
  else parentPort.postMessage({ id, kind: "parsed", slices: send(value, port) });
});
`;

/** What the worker answers, as its SOURCE posts it. */
type Answer = { id: number } & (
  { kind: "parsed"; slices: number } | { kind: "invalid"; error: string } | { kind: "deeper" }
);
type Pending = { port: MessagePort; resolve: (answer: ParsedElsewhere) => void };
let worker: { thread: Worker; pending: Map<number, Pending> } | undefined;
let nextId = 0;

async function settle({ port, resolve }: Pending, answer: Answer) {
  if (answer.kind !== "parsed") {
    port.close();
    return resolve(answer.kind === "invalid" ? { kind: "invalid", error: answer.error } : { kind: "deeper" });
  }
  const next = () => {
    const slice: unknown = receiveMessageOnPort(port)?.message;
    if (!isSlice(slice)) throw new Error("The JSON worker sent fewer slices than it said.");
    return slice;
  };
  const value = await rebuild(next, answer.slices).catch(() => undefined);
  port.close();
  resolve(value === undefined ? { kind: "failed" } : { kind: "parsed", value });
}

/** The one worker, started on first use. */
function theWorker(maxDepth: number): NonNullable<typeof worker> {
  if (worker) return worker;
  const thread = new Worker(SOURCE, { eval: true, workerData: { maxDepth } });
  const pending = new Map<number, Pending>();
  const current = { thread, pending };
  const fail = () => {
    // a crash (out of memory, say) fails what was queued; the next body starts a new worker
    if (worker === current) worker = undefined;
    for (const { port, resolve } of pending.values()) {
      port.close();
      resolve({ kind: "failed" });
    }
    pending.clear();
  };
  thread.on("message", (answer: Answer) => {
    const waiting = pending.get(answer.id);
    pending.delete(answer.id);
    if (pending.size === 0) thread.unref();
    if (waiting) void settle(waiting, answer);
  });
  thread.on("error", fail).on("exit", fail);
  worker = current;
  return current;
}

/**
 * Parses UTF-8 `bytes` off the main thread and checks that they nest at most `maxDepth` deep (the
 * same limit for the life of the process: the worker is started with the first one). A view of a
 * whole buffer is transferred (it is detached here after), so the loop copies nothing; a view of
 * part of one is copied.
 */
export function parseElsewhere(bytes: Uint8Array, maxDepth: number): Promise<ParsedElsewhere> {
  const { thread, pending } = theWorker(maxDepth);
  if (pending.size >= MAX_QUEUED) return Promise.resolve({ kind: "busy" });
  const id = nextId++;
  const { port1, port2 } = new MessageChannel();
  return new Promise((resolve) => {
    pending.set(id, { port: port1, resolve });
    // held while it works, like any request in flight; idle, it never keeps the process alive
    thread.ref();
    const whole =
      bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    const own = whole ? (bytes as Uint8Array<ArrayBuffer>) : bytes.slice();
    thread.postMessage({ id, bytes: own, port: port2 }, [port2, own.buffer]);
  });
}
