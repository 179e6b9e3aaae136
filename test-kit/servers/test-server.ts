/**
 * For integration tests: starts the real app on an ephemeral port over HTTP, with an in-memory
 * job store unless told otherwise, and connects the official MCP client to it.
 */
import { serve } from "@hono/node-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  StreamableHTTPClientTransport,
  type StreamableHTTPReconnectionOptions,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CallToolResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll } from "vitest";
import * as z from "zod/mini";
import { ToolErrorSchema, type ToolError } from "../../shared/errors.js";
import type { JobEvent } from "../../shared/job-events.js";
import {
  GetJobEventsOutput,
  StartBulkOutput,
  TOOL,
  type GetJobEventsResult,
  type StartBulkResult,
} from "../../shared/tools.js";
import { createApp, type AppOptions } from "../../server/app.js";
import { paceFromMeta, pauseAtPace } from "../../server/dev-pace.js";
import { matchGifts } from "../../server/gifts/matcher.js";
import { setHttpTimeouts } from "../../server/accept-limit.js";
import { createJobService } from "../../server/jobs/job-service.js";
import type { JobService } from "../../server/jobs/job-service.js";
import { createMemoryStore } from "../../server/jobs/stores/memory.js";

export type TestServer = {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  mcpUrl: URL;
  jobs: JobService;
  close(): Promise<void>;
};

export type TestServerOptions = Partial<AppOptions> & {
  /**
   * Starts honour the pace their request's `_meta` asks for, as with GIFTGENIUS_DEV=1 (dev-pace.ts);
   * a job service given in `jobs` paces only if it was built with `beforeSlice: pauseAtPace`.
   */
  devPace?: boolean;
};

/**
 * Starts the app on 127.0.0.1 and a free port (or `port`, to start a server again where it was);
 * `close` ends the app, the jobs and every connection.
 */
export async function startTestServer({ devPace, ...options }: TestServerOptions = {}, port = 0): Promise<TestServer> {
  const paced = devPace ? { beforeSlice: pauseAtPace } : {};
  const jobs = options.jobs ?? createJobService({ store: createMemoryStore(), match: matchGifts, ...paced });
  const { app, close } = createApp({ ...options, ...(devPace && { runOptionsOf: paceFromMeta }), jobs });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, () => resolve(s));
  });
  setHttpTimeouts(server); // as main.ts does
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("The test server has no TCP address");
  const url = `http://127.0.0.1:${address.port}`;
  return {
    url,
    mcpUrl: new URL(`${url}/mcp`),
    jobs,
    async close() {
      await close();
      await jobs.close();
      if ("closeAllConnections" in server) server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Connects an official MCP client (Streamable HTTP) to the server. */
export async function connectClient(mcpUrl: URL, capabilities: Record<string, unknown> = {}): Promise<Client> {
  const client = new Client({ name: "giftgenius-test", version: "1.0.0" }, { capabilities });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl));
  return client;
}

/** Raw JSON-RPC over HTTP, for what the official client would refuse to send. */
/**
 * Starts the app and connects a client before a file's tests, and closes both after them.
 * Read `server` and `client` inside tests (they are set by the time any test runs).
 */
export function useTestClient(options: TestServerOptions = {}): { server: TestServer; client: Client } {
  const ctx = {} as { server: TestServer; client: Client };
  beforeAll(async () => {
    ctx.server = await startTestServer(options);
    ctx.client = await connectClient(ctx.server.mcpUrl);
  });
  afterAll(async () => {
    await ctx.client?.close();
    await ctx.server?.close();
  });
  return ctx;
}

export async function postRaw(mcpUrl: URL, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body,
  });
}

type SseEvent = { id?: string; event?: string; data: string };
export type SseReader = {
  /** The next event; rejects when the stream ends first. */
  next(): Promise<SseEvent>;
  /** Disconnects, as a client going away would. */
  close(): Promise<void>;
};

/** Reads a `text/event-stream` response event by event. */
export function readSse(response: Response): SseReader {
  if (!response.body) throw new Error("The response has no body");
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return {
    async next() {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SseEvent = { data: "" };
          const data: string[] = [];
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) continue;
            const colon = line.indexOf(":");
            const field = colon === -1 ? line : line.slice(0, colon);
            const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
            if (field === "id") event.id = value;
            else if (field === "event") event.event = value;
            else if (field === "data") data.push(value);
          }
          if (data.length === 0 && event.id === undefined) continue;
          event.data = data.join("\n");
          return event;
        }
        const chunk = await reader.read();
        if (chunk.done) throw new Error("The event stream ended");
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
    async close() {
      await reader.cancel().catch(() => {});
    },
  };
}

/** A raw 2025-11-25 `initialize`, the request a client of that era opens with; `headers` added. */
export function postInitialize(
  mcpUrl: URL,
  headers: Record<string, string> = {},
  protocolVersion = "2025-11-25",
): Promise<Response> {
  return postRaw(
    mcpUrl,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
    headers,
  );
}

/** A raw MCP session over fetch: initialize, then JSON-RPC requests with its session id. */
export async function openRawSession(
  mcpUrl: URL,
  protocolVersion = "2025-11-25",
): Promise<{
  sessionId: string;
  headers: Record<string, string>;
  /** Sends a request and returns its JSON-RPC response, whether it came as JSON or SSE. */
  request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
}> {
  const init = await postInitialize(mcpUrl, {}, protocolVersion);
  const sessionId = init.headers.get("mcp-session-id");
  if (!sessionId) throw new Error(`initialize answered ${init.status} without a session id`);
  await init.text();
  const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": protocolVersion };
  await postRaw(mcpUrl, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), headers);
  let id = 0;
  return {
    sessionId,
    headers,
    async request(method, params) {
      const requestId = ++id;
      const response = await postRaw(
        mcpUrl,
        JSON.stringify({ jsonrpc: "2.0", id: requestId, method, params }),
        headers,
      );
      if (response.headers.get("content-type")?.startsWith("application/json")) return response.json();
      const sse = readSse(response);
      for (;;) {
        const message = JSON.parse((await sse.next()).data || "{}");
        if (message.id === requestId) {
          await sse.close();
          return message;
        }
      }
    },
  };
}

/** Calls a tool with the official client; the reply is parsed as a `CallToolResult`. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options?: RequestOptions,
): Promise<CallToolResult> {
  return CallToolResultSchema.parse(await client.callTool({ name, arguments: args }, undefined, options));
}

/** The text blocks of a tool result, one per line. */
export const toolText = (result: CallToolResult): string =>
  result.content
    .map((c) => (c.type === "text" ? c.text : ""))
    .filter(Boolean)
    .join("\n");

const ErrorResult = z.object({ error: ToolErrorSchema });

/** The domain error an `isError` result carries; throws when the result is a success. */
export function toolError(result: CallToolResult): ToolError {
  if (result.isError !== true) throw new Error(`expected isError, got: ${toolText(result)}`);
  return ErrorResult.parse(result.structuredContent).error;
}

/** Starts a bulk analysis; a refusal throws with the tool's own sentence. */
export async function startJob(client: Client, args: Record<string, unknown>): Promise<StartBulkResult> {
  const result = await callTool(client, TOOL.startBulk, args);
  if (result.isError) throw new Error(toolText(result));
  return StartBulkOutput.parse(result.structuredContent);
}

export type JobHistory = {
  /** Every event from seq 1, as parsed by the tool's output schema. */
  events: JobEvent[];
  /** The events exactly as they came over the wire, for checking that nothing else travels. */
  raw: unknown[];
  /** The last page read: the job's status when it was read. */
  last: GetJobEventsResult;
};

/** Reads a job's whole history with get_job_events from afterSeq 0, page by page, without waiting. */
export async function readJobHistory(client: Client, jobId: string): Promise<JobHistory> {
  const events: JobEvent[] = [];
  const raw: unknown[] = [];
  for (let afterSeq = 0; ;) {
    const result = await callTool(client, TOOL.getJobEvents, { jobId, afterSeq, limit: 1000 });
    if (result.isError) throw new Error(toolText(result));
    const page = GetJobEventsOutput.parse(result.structuredContent);
    events.push(...page.events);
    raw.push(...z.object({ events: z.array(z.unknown()) }).parse(result.structuredContent).events);
    if (page.done || page.events.length === 0) return { events, raw, last: page };
    afterSeq = page.nextSeq;
  }
}

/** Follows a job with long polls until it has made some progress; returns the seq to continue after. */
export async function untilJobProgress(client: Client, jobId: string): Promise<number> {
  for (let afterSeq = 0; ;) {
    const result = await callTool(client, TOOL.getJobEvents, { jobId, afterSeq, waitMs: 20_000 });
    if (result.isError) throw new Error(toolText(result));
    const page = GetJobEventsOutput.parse(result.structuredContent);
    if (page.done) throw new Error(`job ${jobId} ended as ${page.status} before it was seen making progress`);
    afterSeq = page.nextSeq;
    if (page.events.some((e) => e.type === "job.progress" && e.payload.percentage > 0)) return afterSeq;
  }
}

/** Control over a client's standalone GET stream, as a flaky network would exercise it. */
export type StreamControl = {
  /** The fetch to give the client transport; POSTs pass straight through. */
  fetch: FetchLike;
  /** The Last-Event-ID each GET was sent with (null for none), in order. */
  readonly lastEventIds: (string | null)[];
  /** Resolves once `count` GET streams have been opened. */
  opened(count: number): Promise<void>;
  /** Cuts the open GET stream as a dropped connection would; GETs after it wait until `resume()`. */
  cut(): void;
  resume(): void;
};

/** A `StreamControl` over the global fetch. */
function createStreamControl(): StreamControl {
  const lastEventIds: (string | null)[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  let openedCount = 0;
  let sever = () => {};
  let held: { promise: Promise<void>; release: () => void } | undefined;

  const fetchFn: FetchLike = async (url, init) => {
    if ((init?.method ?? "GET") !== "GET") return fetch(url, init);
    lastEventIds.push(new Headers(init?.headers).get("last-event-id"));
    if (held) await held.promise;
    const response = await fetch(url, init);
    if (!response.ok || !response.body) return response;
    const upstream = response.body.getReader();
    let downstream!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => void (downstream = controller),
      async pull(controller) {
        try {
          const chunk = await upstream.read();
          if (chunk.done) controller.close();
          else controller.enqueue(chunk.value);
        } catch (error) {
          controller.error(error); // a no-op once the stream was cut
        }
      },
      cancel: (reason) => upstream.cancel(reason),
    });
    sever = () => {
      downstream.error(new Error("The connection was cut"));
      // closing the upstream too is what lets the server see the client go
      upstream.cancel().catch(() => {});
    };
    openedCount++;
    for (const w of waiting.filter((w) => openedCount >= w.count)) w.resolve();
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  return {
    fetch: fetchFn,
    lastEventIds,
    opened: (count) =>
      openedCount >= count ? Promise.resolve() : new Promise((resolve) => waiting.push({ count, resolve })),
    cut() {
      let release = () => {};
      held = { promise: new Promise<void>((resolve) => (release = resolve)), release: () => release() };
      sever();
    },
    resume() {
      held?.release();
      held = undefined;
    },
  };
}

/** Reconnects within milliseconds and keeps trying, so a test need not wait out the SDK's backoff. */
const QUICK_RECONNECTION: StreamableHTTPReconnectionOptions = {
  initialReconnectionDelay: 10,
  maxReconnectionDelay: 100,
  reconnectionDelayGrowFactor: 1.5,
  maxRetries: 50,
};

/**
 * Connects an official MCP client whose standalone GET stream is open (so no notification can slip
 * by before it is), through a `StreamControl` the test may use to cut and resume that stream.
 */
export async function connectStreamingClient(mcpUrl: URL): Promise<{ client: Client; stream: StreamControl }> {
  const stream = createStreamControl();
  const client = new Client({ name: "giftgenius-test", version: "1.0.0" }, { capabilities: {} });
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl, { fetch: stream.fetch, reconnectionOptions: QUICK_RECONNECTION }),
  );
  await stream.opened(1);
  return { client, stream };
}
