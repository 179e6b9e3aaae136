/**
 * The part of autocannon 8's API the server benchmark uses (the package ships no types).
 * Latencies are in milliseconds; `requests` counts are per second.
 */
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  export type Options = {
    url: string;
    method?: "GET" | "POST";
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    /** How often (ms) the run samples its counters; it can only stop on a sample. */
    sampleInt?: number;
    timeout?: number;
    verifyBody?: (body: string) => boolean;
    /** The requests to send in turn; `setupRequest` may rewrite each one before it goes. */
    requests?: { setupRequest?: (request: { body?: string }) => { body?: string } }[];
  };
  type Histogram = { average: number; p50: number; p99: number; max: number; total: number };
  export type Result = {
    requests: Histogram;
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  };
  export type Instance = EventEmitter & PromiseLike<Result> & { stop(): void };

  function autocannon(options: Options): Instance;
  export default autocannon;
}
