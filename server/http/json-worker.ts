/**
 * Parses a JSON body, a large one in a worker thread so a million strings do not hold the event
 * loop: the value comes back in slices (json-slices.ts). The worker's code is a string run with
 * `eval: true`, so the same code runs under tsx, vitest and the tsc build. A burst is bounded by its
 * bytes, not its count: past `MAX_PARSING_BYTES` held a body is refused (503). Why ours: the SDK
 * parses every body on the event loop.
 */
import { availableParallelism } from "node:os";
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import { isSlice, rebuild } from "./json-slices.js";

export type ParsedJson =
  | { kind: "parsed"; value: unknown }
  | { kind: "invalid"; error: string }
  | { kind: "deeper" }
  | { kind: "busy" }
  | { kind: "failed" };

/** Bytes handed to the workers and not yet given back, at most: what a burst may hold in memory. */
const MAX_PARSING_BYTES = 96 * 1024 * 1024;

/** One per core the event loop leaves free, at least one, at most four. */
const PARSER_THREADS = Math.max(1, Math.min(4, availableParallelism() - 1));

/**
 * Whether `value` nests objects or arrays more than `limit` deep: it recurses at most `limit` calls
 * deep, so any depth is safe. Plain JavaScript once compiled: its source is the worker's too.
 */
function nestedDeeper(value: unknown, limit: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (limit <= 0) return true;
  for (const child of Array.isArray(value) ? value : Object.values(value))
    if (nestedDeeper(child, limit - 1)) return true;
  return false;
}

/** CommonJS (what `eval: true` runs); the slicing walk may recurse, the depth being checked first. */
const SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const limit = workerData.maxDepth;
${nestedDeeper.toString()}
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
  if (nestedDeeper(value, limit)) port.close(), parentPort.postMessage({ id, kind: "deeper" });
  else parentPort.postMessage({ id, kind: "parsed", slices: send(value, port) });
});
`;

type Answer = { id: number } & (
  { kind: "parsed"; slices: number } | { kind: "invalid"; error: string } | { kind: "deeper" }
);
type Pending = { port: MessagePort; bytes: number; resolve: (answer: ParsedJson) => void };
type Parser = { thread: Worker; pending: Map<number, Pending>; bytes: number };

const parsers: Parser[] = [];
let nextId = 0;

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

/** An idle worker, a new one while fewer than `PARSER_THREADS`, else the one with the fewest bytes waiting. */
function leastBusy(maxDepth: number): Parser {
  const idle = parsers.find((p) => p.pending.size === 0);
  if (idle) return idle;
  if (parsers.length < PARSER_THREADS) return startParser(maxDepth);
  return parsers.reduce((a, b) => (b.bytes < a.bytes ? b : a));
}

/**
 * Parses UTF-8 `bytes` off the main thread, nesting at most `maxDepth` (fixed for the process).
 * `busy` when the bytes waiting would pass `maxBytes`; a body alone is always taken. A whole buffer
 * is transferred (detached here after), part of one copied.
 */
export function parseElsewhere(
  bytes: Uint8Array,
  maxDepth: number,
  maxBytes: number = MAX_PARSING_BYTES,
): Promise<ParsedJson> {
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

/**
 * From this many bytes on, a body is parsed in a worker thread: a million short strings take about
 * a second to parse, while 100 KB parses in a millisecond or two, less than the trip to a worker.
 */
const ELSEWHERE_FROM = 256 * 1024;

/** Parses UTF-8 `bytes`, nesting at most `maxDepth`: on this thread when small, else `parseElsewhere`. */
export async function parseJson(bytes: Uint8Array, maxDepth: number): Promise<ParsedJson> {
  if (bytes.length >= ELSEWHERE_FROM) return parseElsewhere(bytes, maxDepth);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
  } catch (error) {
    return { kind: "invalid", error: String(error) };
  }
  return nestedDeeper(value, maxDepth) ? { kind: "deeper" } : { kind: "parsed", value };
}
