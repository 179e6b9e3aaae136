/**
 * Parses a JSON body, a large one in a worker thread so a million strings do not hold the event loop
 * (the SDK parses every body on it). The worker's code is a string run with `eval: true`, the same
 * under tsx, vitest and the tsc build. A burst is bounded by bytes: past `MAX_PARSING_BYTES` held, 503.
 */
import { availableParallelism } from "node:os";
import { setImmediate as nextTurn } from "node:timers/promises";
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from "node:worker_threads";

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

/** Parses UTF-8 `bytes`, nesting at most `limit`; its source is the worker's too. */
function parseChecked(bytes: Uint8Array, limit: number): ParsedJson {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
  } catch (error) {
    return { kind: "invalid", error: String(error) };
  }
  return nestedDeeper(value, limit) ? { kind: "deeper" } : { kind: "parsed", value };
}

/**
 * The worker sends the value in slices, the loop turning between them (a million strings in one
 * message hold it ~0.2 s). A slice is a depth-first walk: `shape` holds 0 for a primitive (the next of
 * `values`), 1 and a count for an array, 2 and a count for an object (each key the next of `values`).
 */
type Slice = { shape: Int32Array; values: unknown[] };
type Container = unknown[] | Record<string, unknown>;

/** It crossed a thread: its shape is checked. */
function isSlice(m: unknown): m is Slice {
  const { shape, values } = (m ?? {}) as Partial<Slice>;
  return shape instanceof Int32Array && Array.isArray(values);
}

function put(into: Container, key: string, node: unknown) {
  if (Array.isArray(into)) into.push(node);
  // as JSON.parse does: "__proto__" is a member like any other, not the object's prototype
  else if (key === "__proto__")
    Object.defineProperty(into, key, { value: node, enumerable: true, writable: true, configurable: true });
  else into[key] = node;
}

/** Takes each of `count` slices with `next`, on a turn of its own. */
async function rebuild(next: () => Slice, count: number): Promise<unknown> {
  const root: unknown[] = [];
  const open: { into: Container; left: number }[] = [{ into: root, left: 1 }];
  for (let n = 0; n < count; n++) {
    if (n > 0) await nextTurn();
    const { shape, values } = next();
    for (let s = 0, v = 0; s < shape.length;) {
      const top = open[open.length - 1];
      const key = Array.isArray(top.into) ? "" : String(values[v++]);
      const code = shape[s++];
      if (--top.left === 0) open.pop();
      if (code === 0) {
        put(top.into, key, values[v++]);
        continue;
      }
      const node: Container = code === 1 ? [] : {};
      put(top.into, key, node);
      const members = shape[s++];
      if (members > 0) open.push({ into: node, left: members });
    }
  }
  return root[0];
}

/** CommonJS (what `eval: true` runs); the slicing walk may recurse, the depth being checked first. */
const SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const limit = workerData.maxDepth;
${nestedDeeper.toString()}
${parseChecked.toString()}
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
  const parsed = parseChecked(bytes, limit);
  if (parsed.kind !== "parsed") port.close(), parentPort.postMessage({ id, ...parsed });
  else parentPort.postMessage({ id, kind: "parsed", slices: send(parsed.value, port) });
});
`;

type Answer = Exclude<ParsedJson, { kind: "parsed" | "busy" }> | { kind: "parsed"; slices: number };
type Pending = { port: MessagePort; bytes: number; resolve: (answer: ParsedJson) => void };
type Parser = { thread: Worker; pending: Map<number, Pending>; bytes: number };

const parsers: Parser[] = [];
let nextId = 0;

async function settle({ port, resolve }: Pending, answer: Answer) {
  if (answer.kind !== "parsed") {
    port.close();
    return resolve(answer);
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
    for (const waiting of parser.pending.values()) void settle(waiting, { kind: "failed" });
    parser.pending.clear();
  };
  thread.on("message", ({ id, ...answer }: Answer & { id: number }) => {
    const waiting = parser.pending.get(id);
    if (!waiting) return;
    parser.pending.delete(id);
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
export function parseElsewhere(bytes: Uint8Array, maxDepth: number, maxBytes = MAX_PARSING_BYTES): Promise<ParsedJson> {
  const size = bytes.byteLength;
  const waiting = parsers.reduce((sum, p) => sum + p.bytes, 0);
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
  return bytes.length >= ELSEWHERE_FROM ? parseElsewhere(bytes, maxDepth) : parseChecked(bytes, maxDepth);
}
