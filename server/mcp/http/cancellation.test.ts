/**
 * Cancellation ends the call: `notifications/cancelled` for a `get_job_events` long poll or a
 * `wait_for_job` in flight ends that POST's SSE stream at once, with no response for it (the spec's
 * basic/utilities/cancellation), and a client that tries to resume the stream is told it is over
 * (204). With the official client (an AbortSignal on callTool sends the notification) and with
 * raw fetch, which shows the stream itself closes. Jobs here never start, so every wait would run
 * its whole length if the cancellation did not end it.
 */
import * as z from "zod/mini";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { TOOL } from "../../../shared/tools.js";
import { employeeCsv } from "../../../test-kit/employee-csv.js";
import { matchGifts } from "../../gifts/matcher.js";
import type { CreateExecutor } from "../../jobs/executor.js";
import { createJobService } from "../../jobs/job-service.js";
import { createMemoryStore } from "../../jobs/stores/memory.js";
import {
  callTool,
  openRawSession,
  postRaw,
  readSse,
  startJob,
  startTestServer,
  type TestServer,
} from "../../../test-kit/servers/test-server.js";

/** Takes jobs and never runs them: they wait as pending for as long as the test needs. */
const neverRuns: CreateExecutor = () => ({
  recover: async () => {},
  submit: async () => {},
  stop: () => {},
  close: async () => {},
});

/** Long enough that an answer by timeout cannot be taken for one by cancellation. */
const LONG_WAIT_MS = 20_000;
/** Well inside LONG_WAIT_MS: a stream still open by then was not ended by the cancellation. */
const SENTINEL_MS = 10_000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    jobs: createJobService({ store: createMemoryStore(), match: matchGifts, executor: neverRuns }),
  });
});
afterAll(async () => {
  await server.close();
});

/** Resolves with `promise`, or rejects naming `what` once the sentinel passes. */
async function beforeSentinel<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const sentinel = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} after ${SENTINEL_MS} ms`)), SENTINEL_MS);
  });
  try {
    return await Promise.race([promise, sentinel]);
  } finally {
    clearTimeout(timer);
  }
}

type Exchange = {
  method: string;
  body: string;
  lastEventId: string | null;
  status: number;
  /** What the response body carried so far. */
  text: () => string;
  /** When the response body ended (performance.now()). */
  ended: Promise<number>;
};

/** The client's fetch, every exchange kept with its body's text and the moment it ended. */
function recordingFetch() {
  const exchanges: Exchange[] = [];
  const listeners = new Set<() => void>();
  const fetchFn: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    let text = "";
    let ended!: (at: number) => void;
    const exchange: Exchange = {
      method: init?.method ?? "GET",
      body: typeof init?.body === "string" ? init.body : "",
      lastEventId: new Headers(init?.headers).get("last-event-id"),
      status: response.status,
      text: () => text,
      ended: new Promise((resolve) => (ended = resolve)),
    };
    exchanges.push(exchange);
    for (const listener of [...listeners]) listener();
    if (!response.body) {
      ended(performance.now());
      return response;
    }
    const decoder = new TextDecoder();
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          text += decoder.decode(chunk, { stream: true });
          controller.enqueue(chunk);
        },
        flush: () => ended(performance.now()),
      }),
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  /** The first exchange that `match` accepts, once it has its answer's headers. */
  const find = (match: (e: Exchange) => boolean) =>
    new Promise<Exchange>((resolve) => {
      const look = () => {
        const found = exchanges.find(match);
        if (found) {
          listeners.delete(look);
          resolve(found);
        }
      };
      listeners.add(look);
      look();
    });
  return { fetch: fetchFn, exchanges, find };
}

async function connectRecorded() {
  const recorded = recordingFetch();
  const client = new Client({ name: "giftgenius-test", version: "1.0.0" });
  const errors: Error[] = [];
  client.onerror = (error) => void errors.push(error);
  await client.connect(new StreamableHTTPClientTransport(server.mcpUrl, { fetch: recorded.fetch }));
  return { client, recorded, errors };
}

const startPending = async (client: Client) =>
  (await startJob(client, { csv: employeeCsv(5), occasion: "holiday", budgetPerPerson: 40 })).jobId;

type RawSession = Awaited<ReturnType<typeof openRawSession>>;

/** Starts a job over a raw session; it stays pending. */
async function startRaw(session: RawSession): Promise<string> {
  const reply = await session.request("tools/call", {
    name: TOOL.startBulk,
    arguments: { csv: employeeCsv(5), occasion: "holiday", budgetPerPerson: 40 },
  });
  const Started = z.object({ result: z.object({ structuredContent: z.object({ jobId: z.string() }) }) });
  return Started.parse(reply).result.structuredContent.jobId;
}

/** A long poll with request id `id` on the pending job `jobId`, sent to `url`. */
const poll = (url: URL, session: RawSession, jobId: string, id: number) =>
  postRaw(
    url,
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: TOOL.getJobEvents, arguments: { jobId, afterSeq: 1, waitMs: LONG_WAIT_MS } },
    }),
    session.headers,
  );

const cancel = (url: URL, session: RawSession, requestId: number | string) =>
  postRaw(
    url,
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "done" } }),
    session.headers,
  );

describe("a cancelled call", () => {
  it.each([
    { tool: TOOL.getJobEvents, args: { afterSeq: 1, waitMs: LONG_WAIT_MS } },
    { tool: TOOL.waitForJob, args: { timeoutMs: LONG_WAIT_MS } },
  ])(
    "$tool with the official client: its stream ends at once with no answer, and is not resumed",
    async ({ tool, args }) => {
      const { client, recorded, errors } = await connectRecorded();
      try {
        const jobId = await startPending(client);
        const controller = new AbortController();
        const call = client.callTool({ name: tool, arguments: { jobId, ...args } }, undefined, {
          signal: controller.signal,
        });
        const post = await recorded.find((e) => e.method === "POST" && e.body.includes(`"${tool}"`));
        // the priming event: the server has the request in hand
        await vi.waitFor(() => expect(post.text()).toMatch(/^id: /m));
        controller.abort("the user moved on");
        const cancelledAt = performance.now();
        await expect(call).rejects.toThrow("the user moved on");
        const endedAt = await beforeSentinel(post.ended, `the ${tool} stream was still open`);
        console.log(`${tool}: its stream closed ${(endedAt - cancelledAt).toFixed(1)} ms after the cancel was sent`);
        expect(post.text()).not.toMatch(/"result"|"error"/);

        // the client saw the stream end without an answer and resumes it from its last event id
        const primingId = /^id: (.+)$/m.exec(post.text())?.[1];
        const resume = await beforeSentinel(
          recorded.find((e) => e.method === "GET" && e.lastEventId === primingId),
          "no resume",
        );
        expect(resume.status).toBe(204);
        await resume.ended;
        // the session goes on: another call on it is answered
        expect((await callTool(client, TOOL.getJobEvents, { jobId })).isError).toBeFalsy();
        // told once that the stream is over, the client neither retries nor reports an error
        expect(recorded.exchanges.filter((e) => e.lastEventId === primingId)).toHaveLength(1);
        expect(errors).toEqual([]);
      } finally {
        await client.close();
      }
    },
  );
});

describe("a cancelled call over raw HTTP", () => {
  it.each(["2025-11-25", "2025-06-18"])(
    "(protocol %s) ends its POST stream once the cancellation is taken, and only that one",
    async (protocolVersion) => {
      const session = await openRawSession(server.mcpUrl, protocolVersion);
      const jobId = await startRaw(session);
      const cancelled = await poll(server.mcpUrl, session, jobId, 41);
      const other = await poll(server.mcpUrl, session, jobId, 42);
      expect(cancelled.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const stream = readSse(cancelled);
      const otherStream = readSse(other);
      const modern = protocolVersion >= "2025-11-25";
      const primingId = modern ? (await stream.next()).id : undefined;
      if (modern) await otherStream.next();

      expect((await cancel(server.mcpUrl, session, 7)).status).toBe(202); // no such request: nothing ends
      expect((await cancel(server.mcpUrl, session, 41)).status).toBe(202);
      const cancelledAt = performance.now();
      await expect(beforeSentinel(stream.next(), "the cancelled stream was still open")).rejects.toThrow(
        "The event stream ended",
      );
      console.log(
        `raw ${protocolVersion}: the stream ended ${(performance.now() - cancelledAt).toFixed(1)} ms after the 202`,
      );
      if (primingId !== undefined) {
        const resume = await fetch(server.mcpUrl, {
          headers: { ...session.headers, accept: "text/event-stream", "last-event-id": primingId },
        });
        expect(resume.status).toBe(204);
      }

      // the other poll is still waiting, and ends the same way when its turn comes
      let otherEnd: string | undefined;
      const otherEnded = otherStream.next().then(
        (event) => (otherEnd = `an event: ${event.data}`),
        (error: Error) => (otherEnd = error.message),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(otherEnd).toBeUndefined();
      await cancel(server.mcpUrl, session, 42);
      expect(await beforeSentinel(otherEnded, "the second stream was still open")).toBe("The event stream ended");
    },
  );

  it("(a batch) ends the stream once the requests not cancelled are answered", async () => {
    const session = await openRawSession(server.mcpUrl, "2025-03-26");
    const jobId = await startRaw(session);
    const batch = await postRaw(
      server.mcpUrl,
      JSON.stringify([
        {
          jsonrpc: "2.0",
          id: "poll",
          method: "tools/call",
          params: { name: TOOL.getJobEvents, arguments: { jobId, afterSeq: 1, waitMs: LONG_WAIT_MS } },
        },
        { jsonrpc: "2.0", id: "list", method: "tools/list" },
      ]),
      session.headers,
    );
    const stream = readSse(batch);
    expect(JSON.parse((await stream.next()).data)).toMatchObject({ id: "list" });
    expect((await cancel(server.mcpUrl, session, "poll")).status).toBe(202);
    await expect(beforeSentinel(stream.next(), "the batch's stream was still open")).rejects.toThrow(
      "The event stream ended",
    );
  });
});
