/**
 * What a request tells its handlers, in either protocol era: who calls, and the tool context built
 * from the SDK's request context. The era is read from the server serving the request; tools only
 * see what it decides (a 2025-11-25 session hears its jobs' log lines on its stream, so its
 * requests carry no `log`).
 */
import type { ServerContext } from "@modelcontextprotocol/server";
import { subjectOf } from "../auth/subject.js";
import type { Caller } from "../jobs/caller.js";
import type { ToolContext } from "./tool-registry.js";

export function callerOf(ctx: ServerContext): Caller {
  return { subject: subjectOf(ctx.http?.authInfo), sessionId: ctx.sessionId };
}

export function toolContext(ctx: ServerContext, modern: boolean): ToolContext {
  const meta = (ctx.mcpReq._meta ?? {}) as Record<string, unknown>;
  const token = meta.progressToken as string | number | undefined;
  return {
    caller: callerOf(ctx),
    scopes: ctx.http?.authInfo?.scopes,
    origin: ctx.http?.req ? new URL(ctx.http.req.url).origin : undefined,
    signal: ctx.mcpReq.signal,
    meta,
    log: modern ? (level, text) => void ctx.mcpReq.log(level, text, "jobs").catch(() => {}) : undefined,
    progress:
      token === undefined
        ? () => {}
        : (progress, total, message) => {
            ctx.mcpReq
              .notify({ method: "notifications/progress", params: { progressToken: token, progress, total, message } })
              .catch(() => {});
          },
  };
}
