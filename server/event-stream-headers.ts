/**
 * Every event stream the server answers with (a session's GET /mcp, a call's progress, a listen
 * stream, whoever writes it) says `X-Accel-Buffering: no`, so that nginx, and the proxies that
 * honour the header, pass each event on as it is written whatever their own buffering.
 */
import type { MiddlewareHandler } from "hono";

export const unbufferedEventStreams: MiddlewareHandler = async (c, next) => {
  await next();
  if (!c.res.headers.get("content-type")?.startsWith("text/event-stream")) return;
  try {
    c.res.headers.set("x-accel-buffering", "no");
  } catch {
    // a response with immutable headers (one passed on from fetch) is copied to say it
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set("x-accel-buffering", "no");
  }
};
