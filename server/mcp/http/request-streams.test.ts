/**
 * Request streams on their own, over SSE bodies written as the SDK's transport writes them: a
 * cancellation ends its request's stream (before or after the answer was handed out), a batch's
 * stream ends once its other requests are answered, only a cancelled stream reads as ended, and
 * nothing is kept once a stream is over.
 */
import { createRequestStreams } from "./request-streams.js";

const encoder = new TextEncoder();
const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_job_events" } });
const cancelling = (requestId: number) => ({
  jsonrpc: "2.0",
  method: "notifications/cancelled",
  params: { requestId },
});
const accepted = async () => new Response(null, { status: 202 });

/** An SSE answer the test writes to, event by event, and its transport, which closes it as the SDK's does. */
function sseAnswer() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let canceled = false;
  const closedFor: unknown[] = [];
  const body = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: () => void (canceled = true),
  });
  return {
    closeSSEStream(requestId: unknown) {
      closedFor.push(requestId);
      controller.close();
    },
    closedFor,
    response: new Response(body, { headers: { "content-type": "text/event-stream" } }),
    prime: (eventId: string) => controller.enqueue(encoder.encode(`id: ${eventId}\ndata: \n\n`)),
    answer: (id: number) =>
      controller.enqueue(
        encoder.encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id, result: {} })}\n\n`),
      ),
    close: () => controller.close(),
    get canceled() {
      return canceled;
    },
  };
}

/** Everything a body carries until it ends. */
const readToEnd = (response: Response): Promise<string> => new Response(response.body).text();
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("request streams", () => {
  it("end the cancelled request's stream after what was written, and only then read it as ended", async () => {
    const streams = createRequestStreams();
    const upstream = sseAnswer();
    const response = await streams.serve("s1", upstream, call(7), async () => upstream.response);
    upstream.prime("stream-a#1");
    const text = readToEnd(response);
    await turn();
    expect(streams.ended("stream-a#1")).toBe(false);

    await streams.serve("s2", upstream, cancelling(7), accepted); // another session's request 7
    await streams.serve("s1", upstream, cancelling(8), accepted); // not in flight
    await streams.serve("s1", upstream, cancelling(7), async () => new Response(null, { status: 400 })); // refused
    expect(streams.holds("s1", 7)).toBe(true);
    await streams.serve("s1", upstream, cancelling(7), accepted);

    expect(await text).toBe("id: stream-a#1\ndata: \n\n");
    expect(upstream.closedFor).toEqual([7]); // the transport closed its own stream
    expect(streams.ended("stream-a#1")).toBe(true);
    expect(streams.ended("stream-a#99")).toBe(true);
    expect(streams.ended("stream-b#1")).toBe(false);
    expect(streams.holds("s1", 7)).toBe(false);
  });

  it("end a stream whose request was cancelled before its answer was handed out", async () => {
    const streams = createRequestStreams();
    const upstream = sseAnswer();
    let handOut = () => {};
    const handed = new Promise<void>((resolve) => (handOut = resolve));
    const serving = streams.serve("s1", upstream, call(1), async () => {
      upstream.prime("stream-c#1");
      await handed;
      return upstream.response;
    });
    await streams.serve("s1", upstream, cancelling(1), accepted);
    handOut();
    expect(await readToEnd(await serving)).toBe("id: stream-c#1\ndata: \n\n");
    expect(streams.ended("stream-c#1")).toBe(true);
    expect(streams.holds("s1", 1)).toBe(false);
  });

  it("end a batch's stream once its requests not cancelled are answered", async () => {
    const streams = createRequestStreams();
    const upstream = sseAnswer();
    const response = await streams.serve(
      "s1",
      upstream,
      [call(1), call(2), cancelling(9)],
      async () => upstream.response,
    );
    let ended = false;
    const text = readToEnd(response).finally(() => (ended = true));
    upstream.prime("stream-d#1");
    await streams.serve("s1", upstream, cancelling(1), accepted);
    await turn();
    expect(ended).toBe(false); // request 2 is still to be answered
    upstream.answer(2);
    expect(await text).toContain('"id":2');
    expect(streams.ended("stream-d#1")).toBe(true);
    expect([streams.holds("s1", 1), streams.holds("s1", 2)]).toEqual([false, false]);
  });
});

describe("request streams that end without a cancellation", () => {
  it("keep nothing once a stream ends on its own or the transport throws, and pass other answers through", async () => {
    const streams = createRequestStreams();
    const upstream = sseAnswer();
    const response = await streams.serve("s1", upstream, call(3), async () => upstream.response);
    upstream.prime("stream-e#1");
    const text = readToEnd(response);
    await turn();
    expect(streams.holds("s1", 3)).toBe(true);
    // the transport closes a stream once its request is answered
    upstream.answer(3);
    upstream.close();
    expect(await text).toContain('"id":3');
    expect(streams.holds("s1", 3)).toBe(false);
    await streams.serve("s1", upstream, cancelling(3), accepted); // too late: it was answered
    expect(streams.ended("stream-e#1")).toBe(false);

    const json = Response.json({ jsonrpc: "2.0", id: 4, result: {} });
    expect(await streams.serve("s1", upstream, call(4), async () => json)).toBe(json);
    await expect(
      streams.serve("s1", upstream, call(5), async () => {
        throw new Error("the transport failed");
      }),
    ).rejects.toThrow("the transport failed");
    expect([3, 4, 5].map((id) => streams.holds("s1", id))).toEqual([false, false, false]);
  });

  it("keep nothing for a stream the client went away from, and release the transport's", async () => {
    const streams = createRequestStreams();
    const upstream = sseAnswer();
    const response = await streams.serve("s1", upstream, call(5), async () => upstream.response);
    upstream.prime("stream-f#1");
    await response.body?.cancel();
    expect(upstream.canceled).toBe(true);
    await turn(); // the pipe lets go once the transport's stream is canceled
    expect(streams.holds("s1", 5)).toBe(false);
  });
});
