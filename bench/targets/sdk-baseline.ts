/**
 * Benchmark target, the baseline: the MCP SDK's own stateless pattern
 * (examples/server/simpleStatelessStreamableHttp.js): `createMcpExpressApp()`, and per POST a NEW
 * `McpServer` registering the same six tools (shared schemas in, shared schemas out, the same
 * handlers over the same matcher and in-memory job service) behind a new
 * `StreamableHTTPServerTransport`. Prints `{"port":…}` once it listens; ends on SIGTERM.
 */
import type { Server } from "node:http";
import * as z from "zod/mini";
import type { Request, Response } from "express";
import { createMcpExpressApp } from "@modelcontextprotocol/sdk/server/express.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { matchGifts } from "../../server/gifts/matcher.js";
import { createJobService } from "../../server/jobs/job-service.js";
import { createMemoryStore } from "../../server/jobs/stores/memory.js";
import { SERVER_INFO, createToolSpecs } from "../../server/mcp/server.js";
import type { ToolContext } from "../../server/mcp/tool-registry.js";
import { loadWidget } from "../../server/widget.js";
import { endWithParent } from "../children.js";

const jobs = createJobService({ store: createMemoryStore(), match: matchGifts });
const widget = loadWidget("dist/widget/index.html");
const specs = createToolSpecs({ jobs, matchGifts, widget });

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

function contextOf(extra: Extra): ToolContext {
  const token = extra._meta?.progressToken;
  return {
    caller: { subject: extra.authInfo?.clientId ?? "anonymous", sessionId: extra.sessionId },
    signal: extra.signal,
    meta: extra._meta ?? {},
    progress: (progress, total, message) => {
      if (token === undefined) return;
      extra
        .sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress, total, message },
        })
        .catch(() => {});
    },
  };
}

const getServer = (): McpServer => {
  const server = new McpServer(SERVER_INFO, { capabilities: { logging: {} } });
  for (const spec of specs) {
    server.registerTool(
      spec.name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema: spec.input,
        // the SDK takes an object schema here; the start tool's output is a union (a job, or a file asked for)
        outputSchema: spec.output instanceof z.ZodMiniObject ? spec.output : undefined,
        annotations: spec.annotations,
        _meta: spec.meta,
      },
      // the SDK has parsed the arguments with spec.input already
      (args, extra) => spec.run(args, contextOf(extra)),
    );
  }
  return server;
};

const app = createMcpExpressApp();
app.post("/mcp", async (req: Request, res: Response) => {
  const server = getServer();
  try {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
  } catch (error) {
    console.error(error);
    if (!res.headersSent)
      res.status(500).json({ jsonrpc: "2.0", error: { code: -32603, message: "Internal server error" }, id: null });
  }
});

const server: Server = app.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  console.log(JSON.stringify({ port: address.port }));
});
endWithParent();
process.on("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  void jobs.close().finally(() => process.exit(0));
});
