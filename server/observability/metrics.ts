/**
 * The process's metrics (prom-client, docs/operations.md); values kept elsewhere are read from the
 * `source`s when scraped. /metrics has a listener of its own (loopback by default), apart from the
 * public port: a caller of /mcp does not reach it, and no token goes to Prometheus.
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type * as prom from "prom-client";

type QueueDepth = { waiting: number; active: number };

/** What the scrape reads from the rest of the process (a worker has no sessions). */
export type MetricSources = {
  queue?: () => Promise<QueueDepth | undefined> | QueueDepth | undefined;
  openStreams?: () => Record<string, number>;
  sessions?: () => number;
  probeStore?: () => Promise<unknown>;
};

const SECONDS_FAST = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Metrics {
  readonly registry = new Registry();
  private sources: MetricSources = {};
  // each metric in this registry, not in prom-client's global one
  private readonly counter = <T extends string>(c: prom.CounterConfiguration<T>) =>
    new Counter({ ...c, registers: [this.registry] });
  private readonly histogram = <T extends string>(c: prom.HistogramConfiguration<T>) =>
    new Histogram({ ...c, registers: [this.registry] });
  private readonly gauge = <T extends string>(c: prom.GaugeConfiguration<T>) =>
    new Gauge({ ...c, registers: [this.registry] });

  readonly httpRequests = this.counter({
    name: "giftgenius_http_requests_total",
    help: "HTTP requests answered, by method, route, MCP method and status",
    labelNames: ["method", "route", "mcp_method", "status"] as const,
  });
  readonly httpDuration = this.histogram({
    name: "giftgenius_http_request_duration_seconds",
    help: "HTTP request latency, from arrival to the response's end, by method, route and MCP method",
    labelNames: ["method", "route", "mcp_method"] as const,
    buckets: [...SECONDS_FAST, 30, 60],
  });
  readonly toolCalls = this.counter({
    name: "giftgenius_tool_calls_total",
    help: "Tool calls, by tool and outcome (ok, or the error code of an isError result)",
    labelNames: ["tool", "outcome"] as const,
  });
  readonly quotaRefusals = this.counter({
    name: "giftgenius_quota_refusals_total",
    help: "Calls refused by a per-subject quota (quota_exceeded) or rate limit (rate_limited)",
    labelNames: ["code"] as const,
  });
  readonly jobs = this.counter({
    name: "giftgenius_jobs_total",
    help: "Jobs ended in this process, by outcome (completed, failed, canceled)",
    labelNames: ["outcome"] as const,
  });
  readonly jobDuration = this.histogram({
    name: "giftgenius_job_duration_seconds",
    help: "From a job's start (its creation if it never started) to its end, by outcome",
    labelNames: ["outcome"] as const,
    buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
  });
  readonly stageRate = this.histogram({
    name: "giftgenius_stage_rows_per_second",
    help: "Rows per second of each finished stage of a job, by stage",
    labelNames: ["stage"] as const,
    buckets: [100, 1_000, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000],
  });
  readonly deliveryLag = this.histogram({
    name: "giftgenius_event_delivery_lag_seconds",
    help: "From an event's append to its delivery to a client (a get_job_events or wait_for_job reply)",
    buckets: SECONDS_FAST,
  });
  readonly storeRoundTrip = this.histogram({
    name: "giftgenius_store_roundtrip_seconds",
    help: "Round trip of a ping to the job store (at each scrape and each /readyz)",
    buckets: [0.0005, 0.001, 0.0025, ...SECONDS_FAST.slice(1, 9)],
  });
  readonly storeUp = this.gauge({
    name: "giftgenius_store_up",
    help: "1 when the job store answered its last ping, 0 when it did not",
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const sources = () => this.sources;
    this.gauge({
      name: "giftgenius_queue_jobs",
      help: "Jobs waiting to run and running, by state (BullMQ's counts with Redis, this process's queue otherwise)",
      labelNames: ["state"] as const,
      async collect() {
        const depth = await sources().queue?.();
        if (depth === undefined) return;
        this.set({ state: "waiting" }, depth.waiting);
        this.set({ state: "active" }, depth.active);
      },
    });
    this.gauge({
      name: "giftgenius_open_streams",
      help: "Requests open now that wait for events: long polls, listen streams, session streams",
      labelNames: ["kind"] as const,
      collect() {
        for (const [kind, n] of Object.entries(sources().openStreams?.() ?? {})) this.set({ kind }, n);
      },
    });
    this.gauge({
      name: "giftgenius_sessions_open",
      help: "MCP sessions (2025-11-25) this instance holds",
      collect() {
        const sessions = sources().sessions;
        if (sessions) this.set(sessions());
      },
    });
  }

  source = (sources: MetricSources): void => {
    this.sources = { ...this.sources, ...sources };
  };

  scrape = async (): Promise<string> => {
    await this.sources.probeStore?.();
    return this.registry.metrics();
  };
}

export type MetricsServer = { url: string; close(): Promise<void> };

/** Listens on `host:port` (0: any free port); rejects when it cannot (a port taken). */
export async function serveMetrics(metrics: Metrics, host: string, port: number): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    if (req.method !== "GET" || (req.url ?? "/").split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found: metrics are at /metrics.\n");
      return;
    }
    metrics.scrape().then(
      (text) => res.writeHead(200, { "content-type": metrics.registry.contentType }).end(text),
      (error: unknown) => res.writeHead(500, { "content-type": "text/plain" }).end(`${String(error)}\n`),
    );
  });
  await once(server.listen(port, host), "listening");
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/metrics`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
