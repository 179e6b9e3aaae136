/**
 * One autocannon run against an MCP endpoint: the same POST repeated on `connections` kept-alive
 * sockets for `seconds`, every answer's body checked, latencies kept at full resolution.
 */
import autocannon, { type Options } from "autocannon";
import { percentile } from "./table.js";

/** Answers per second of the run, their p50/p99 latency in ms, and the answers that were good or not. */
export type Load = { rps: number; p50: number; p99: number; ok: number; bad: number };

export type LoadOptions = {
  url: URL;
  headers: Record<string, string>;
  /** An `ID_PLACEHOLDER` id in the body becomes a fresh number for each request. */
  body: string;
  check: (body: string) => boolean;
  seconds: number;
  connections: number;
};

/**
 * The JSON-RPC id of a body whose requests need ids of their own (those in flight together in one
 * session must not share one): each request sent gets the next number in its place.
 */
export const ID_PLACEHOLDER = "<id>";
const SLOT = JSON.stringify(ID_PLACEHOLDER);

/** `body` with `id` where the placeholder id is. */
export const withId = (body: string, id: number): string => body.replace(SLOT, String(id));

/** Each request with the next id (autocannon builds a request again before each send when asked to). */
function freshIds(body: string): Options["requests"] {
  if (!body.includes(SLOT)) return undefined;
  let next = 0;
  return [{ setupRequest: (request) => ({ ...request, body: withId(body, ++next) }) }];
}

export async function load({ url, headers, body, check, seconds, connections }: LoadOptions): Promise<Load> {
  const latencies: number[] = [];
  const instance = autocannon({
    url: url.href,
    method: "POST",
    headers,
    body,
    requests: freshIds(body),
    connections,
    duration: seconds,
    sampleInt: 100,
    timeout: 10,
    verifyBody: check,
  });
  instance.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  const bad = result.non2xx + result.mismatches + result.errors + result.timeouts;
  const ok = latencies.length - result.mismatches;
  return { rps: ok / result.duration, p50: percentile(latencies, 50), p99: percentile(latencies, 99), ok, bad };
}
