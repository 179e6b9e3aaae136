/**
 * Event streams say `X-Accel-Buffering: no` to the proxy in front, however they were made; other
 * answers say nothing of it.
 */
import { Hono } from "hono";
import { unbufferedEventStreams } from "./app.js";

const stream = () => new Response("data: 1\n\n", { headers: { "content-type": "text/event-stream; charset=utf-8" } });

describe("event streams through a proxy", () => {
  const app = new Hono();
  app.use("*", unbufferedEventStreams);
  app.get("/stream", () => stream());
  // a response from fetch has headers that cannot change
  app.get("/fetched", () => fetch("data:text/event-stream,data: 1%0A%0A"));
  app.get("/json", (c) => c.json({ ok: true }));

  it("tells the proxy not to buffer an event stream", async () => {
    const response = await app.request("/stream");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    expect(await response.text()).toBe("data: 1\n\n");
  });

  it("tells it so of a stream passed on from fetch too", async () => {
    const response = await app.request("/fetched");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    expect(await response.text()).toBe("data: 1\n\n");
  });

  it("says nothing of buffering on other answers", async () => {
    expect((await app.request("/json")).headers.get("x-accel-buffering")).toBeNull();
  });
});
