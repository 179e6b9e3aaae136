/** What a 2026-07-28 request tells its handlers: who calls, and the tool context built from its envelope. */
import type { ServerContext } from "@modelcontextprotocol/server";
import { subjectOf } from "../../auth/subject.js";
import type { Caller } from "../../jobs/caller.js";
import type { ToolContext } from "../tool-registry.js";

export function callerOf(ctx: ServerContext): Caller {
  return { subject: subjectOf(ctx.http?.authInfo) };
}

export function toolContext(ctx: ServerContext): ToolContext {
  const meta = (ctx.mcpReq._meta ?? {}) as Record<string, unknown>;
  const token = meta.progressToken as string | number | undefined;
  return {
    caller: callerOf(ctx),
    scopes: ctx.http?.authInfo?.scopes,
    origin: ctx.http?.req ? new URL(ctx.http.req.url).origin : undefined,
    signal: ctx.mcpReq.signal,
    meta,
    log: (level, text) => void ctx.mcpReq.log(level, text, "jobs").catch(() => {}),
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
