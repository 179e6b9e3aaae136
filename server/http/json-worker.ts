/**
 * Parses a large request body in a worker thread, so a 10 MB body of a million strings does not
 * hold the event loop for the second its JSON.parse takes: the bytes are decoded and parsed there, the
 * nesting checked, and the value comes back in slices (json-slices.ts). The worker's code is a string run with
 * `eval: true`: it needs no transpiling, so the very same code runs under tsx and vitest (which
 * start no worker from a .ts file) and from the tsc build (which would not copy a .js file).
 *
 * A burst of bodies waits for the workers, bounded by its bytes, not by its count: nine people
 * starting a large analysis at once all get their answer, and only past `MAX_PARSING_BYTES` held
 * is a body refused (the caller answers 503 with Retry-After). There is one worker per core the
 * event loop leaves free, up to four; each body goes to the one with the fewest bytes waiting.
 *
 * Why ours: the SDK parses every body on the event loop.
 */
import { availableParallelism } from "node:os";
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import { isSlice, rebuild } from "./json-slices.js";

export type ParsedElsewhere =
  | { kind: "parsed"; value: unknown }
  | { kind: "invalid"; error: string }
  | { kind: "deeper" }
  | { kind: "busy" }
  | { kind: "failed" };

/**
 * Bytes of bodies handed to the workers and not yet given back; a body that would pass it is
 * refused. Each body is at most the body limit, and the accept limit bounds the connections, so
 * this is what a burst may hold in memory at once beyond the requests being read.
 */
const MAX_PARSING_BYTES = 96 * 1024 * 1024;

/** Worker threads: one per core the event loop leaves free, at least one, at most four. */
const PARSER_THREADS = Math.max(1, Math.min(4, availableParallelism() - 1));

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
type Pending = { port: MessagePort; bytes: number; resolve: (answer: ParsedElsewhere) => void };
type Parser = { thread: Worker; pending: Map<number, Pending>; bytes: number };

const parsers: Parser[] = [];
let nextId = 0;

/** Bytes handed to the workers and not yet answered, all of them together. */
const held = (): number => parsers.reduce((sum, p) => sum + p.bytes, 0);

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

function startParser(maxDepth: number): Parser {
  const thread = new Worker(SOURCE, { eval: true, workerData: { maxDepth } });
  const parser: Parser = { thread, pending: new Map(), bytes: 0 };
  const fail = () => {
    // a crash (out of memory, say) fails what was queued on it; the next body starts a new worker
    const at = parsers.indexOf(parser);
    if (at !== -1) parsers.splice(at, 1);
    for (const waiting of parser.pending.values()) {
      waiting.port.close();
      waiting.resolve({ kind: "failed" });
    }
    parser.pending.clear();
    parser.bytes = 0;
  };
  thread.on("message", (answer: Answer) => {
    const waiting = parser.pending.get(answer.id);
    if (!waiting) return;
    parser.pending.delete(answer.id);
    parser.bytes -= waiting.bytes;
    if (parser.pending.size === 0) thread.unref();
    void settle(waiting, answer);
  });
  thread.on("error", fail).on("exit", fail);
  parsers.push(parser);
  return parser;
}

/** The worker with the fewest bytes waiting; a new one while there are fewer than `PARSER_THREADS` and all work. */
function leastBusy(maxDepth: number): Parser {
  const idle = parsers.find((p) => p.pending.size === 0);
  if (idle) return idle;
  if (parsers.length < PARSER_THREADS) return startParser(maxDepth);
  return parsers.reduce((a, b) => (b.bytes < a.bytes ? b : a));
}

/**
 * Parses UTF-8 `bytes` off the main thread and checks that they nest at most `maxDepth` deep (the
 * same limit for the life of the process: each worker is started with it). `busy` when the bytes
 * waiting would pass `maxBytes`; a body alone is always taken. A view of a whole buffer is
 * transferred (it is detached here after), so the loop copies nothing; a view of part of one is copied.
 */
export function parseElsewhere(
  bytes: Uint8Array,
  maxDepth: number,
  maxBytes: number = MAX_PARSING_BYTES,
): Promise<ParsedElsewhere> {
  const size = bytes.byteLength;
  const waiting = held();
  if (waiting > 0 && waiting + size > maxBytes) return Promise.resolve({ kind: "busy" });
  const parser = leastBusy(maxDepth);
  const id = nextId++;
  const { port1, port2 } = new MessageChannel();
  return new Promise((resolve) => {
    parser.pending.set(id, { port: port1, bytes: size, resolve });
    parser.bytes += size;
    // held while it works, like any request in flight; idle, it never keeps the process alive
    parser.thread.ref();
    const whole =
      bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    const own = whole ? (bytes as Uint8Array<ArrayBuffer>) : bytes.slice();
    parser.thread.postMessage({ id, bytes: own, port: port2 }, [port2, own.buffer]);
  });
}
