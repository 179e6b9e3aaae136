/**
 * Builds the MCP server: everything that does not depend on a connection (tool list with its
 * JSON Schemas, resource listings, prompts) is made once by `createMcpParts`; `buildMcpServer`
 * only wires those into a fresh SDK `Server`, one per session or per pooled stateless slot.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type ServerNotification,
  type ServerRequest,
  ErrorCode,
} from "@modelcontextprotocol/sdk/types.js";
import { subjectOf } from "../auth/subject.js";
import { CURRENCIES, type Currency } from "../../shared/money.js";
import { CATALOG, type CatalogItem } from "../gifts/catalog.js";
import { createFileLinks, type FileLinks } from "../files/export/file-links.js";
import type { Caller } from "../jobs/caller.js";
import type { JobService } from "../jobs/job-service.js";
import type { MatchGifts } from "../gifts/matcher.js";
import type { Widget } from "../widget.js";
import { forwardJobEvents, type SessionState } from "./notifications.js";
import { createPrompts, type Prompts } from "./prompts.js";
import { createResources, resultJobOf, type Resources } from "./resources.js";
import { JsonRpcError } from "./rpc-error.js";
import type { GiftServer } from "./server-types.js";
import {
  createToolRegistry,
  type ToolContext,
  type ToolRegistry,
  type ToolSecurity,
  type ToolSpec,
} from "./tool-registry.js";
import { openStaffFiles } from "../files/files-env.js";
import type { StaffFiles } from "../files/staff-files.js";
import { beginFileUploadTool } from "./tools/begin-file-upload.js";
import { cancelJobTool } from "./tools/cancel-job.js";
import { claimFollowUpTool } from "./tools/claim-follow-up.js";
import { deleteJobTool } from "./tools/delete-job.js";
import { dropFileUploadTool } from "./tools/drop-file-upload.js";
import { exportJobResultTool } from "./tools/export-job-result.js";
import { getJobEventsTool } from "./tools/get-job-events.js";
import { getJobResultTool } from "./tools/get-job-result.js";
import { getJobTableTool } from "./tools/get-job-table.js";
import { listJobsTool } from "./tools/list-jobs.js";
import { previewStaffFileTool } from "./tools/preview-staff-file.js";
import { putFileChunkTool } from "./tools/put-file-chunk.js";
import { showJobTool } from "./tools/show-job.js";
import { startBulkAnalysisTool, type RunOptionsOf } from "./tools/start-bulk-analysis.js";
import { suggestGiftsTool } from "./tools/suggest-gifts.js";
import { waitForJobTool } from "./tools/wait-for-job.js";

export const SERVER_INFO = { name: "giftgenius", title: "GiftGenius", version: "0.1.0" };

export const INSTRUCTIONS =
  "GiftGenius picks gifts from its catalog, within a budget in the user's currency (KRW, USD, EUR, JPY or GBP; " +
  "their locale's when not given). For one person, call suggest_gifts. " +
  "For a team or a CSV of employees, call start_bulk_gift_analysis: it answers at once with a jobId while the " +
  "widget shows live progress; then call wait_for_job, and get_job_result to read the picks. " +
  "For an earlier analysis, list_jobs finds it and show_job shows its card again.";

export type McpDeps = {
  jobs: JobService;
  matchGifts: MatchGifts;
  widget: Widget;
  catalog?: readonly CatalogItem[];
  /** Hears about handlers that threw. */
  onError?: (error: unknown) => void;
  /** The run options of the job a start request starts, from its `_meta` (the app root's); none by default. */
  runOptionsOf?: RunOptionsOf;
  /** With sign-in: the scopes each tool needs and how to ask for them. */
  security?: ToolSecurity;
  /** Staff files in: uploads and files handed over by URL (uploads in memory, no download hosts by default). */
  files?: StaffFiles;
  /** Signs the download links of files out; the app serves them (a key of its own by default). */
  fileLinks?: FileLinks;
};

/**
 * The connection-independent parts, built once per app; the SDK's JSON Schema validator too (an
 * Ajv instance that every server would otherwise build for itself: ~20 KB and ~0.2 ms each).
 */
export type McpParts = {
  jobs: JobService;
  tools: ToolRegistry;
  resources: Resources;
  prompts: Prompts;
  validator: AjvJsonSchemaValidator;
};

/** Every tool, each with its schemas, _meta and handler: both protocol eras serve this one list. */
export function createToolSpecs({
  jobs,
  matchGifts,
  widget,
  catalog = CATALOG,
  runOptionsOf,
  files = openStaffFiles(jobs),
  fileLinks = createFileLinks(),
}: Omit<McpDeps, "onError" | "security">): ToolSpec[] {
  const cheapest = (c: Currency) => Math.min(...catalog.map((i) => i.prices[c]));
  const cheapestPrice = { USD: 0, KRW: 0, EUR: 0, JPY: 0, GBP: 0 };
  for (const c of CURRENCIES) cheapestPrice[c] = cheapest(c);
  return [
    suggestGiftsTool({ matchGifts, cheapestPrice, widget }),
    startBulkAnalysisTool({ jobs, files, widget, runOptionsOf }),
    getJobEventsTool({ jobs, widget }),
    getJobResultTool({ jobs, widget }),
    getJobTableTool({ jobs, widget }),
    cancelJobTool({ jobs, widget }),
    waitForJobTool({ jobs, widget }),
    deleteJobTool({ jobs, widget }),
    listJobsTool({ jobs }),
    showJobTool({ jobs, widget }),
    claimFollowUpTool({ jobs, widget }),
    beginFileUploadTool({ uploads: files.uploads, widget }),
    putFileChunkTool({ uploads: files.uploads, widget }),
    dropFileUploadTool({ uploads: files.uploads, widget }),
    previewStaffFileTool({ files, widget }),
    exportJobResultTool({ jobs, widget, links: fileLinks }),
  ];
}

export function createMcpParts(deps: McpDeps): McpParts {
  const { jobs, widget, catalog = CATALOG, onError } = deps;
  const tools = createToolRegistry(createToolSpecs(deps), onError, deps.security);
  return {
    jobs,
    tools,
    resources: createResources({ jobs, widget, catalog }),
    prompts: createPrompts(),
    validator: new AjvJsonSchemaValidator(),
  };
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

function callerOf(extra: Extra): Caller {
  return { subject: subjectOf(extra.authInfo), sessionId: extra.sessionId };
}

function toolContext(extra: Extra): ToolContext {
  const token = extra._meta?.progressToken;
  return {
    caller: callerOf(extra),
    scopes: extra.authInfo?.scopes,
    origin: extra.requestInfo?.url?.origin,
    signal: extra.signal,
    meta: extra._meta ?? {},
    progress:
      token === undefined
        ? () => {}
        : (progress, total, message) => {
            extra
              .sendNotification({
                method: "notifications/progress",
                params: { progressToken: token, progress, total, message },
              })
              .catch(() => {});
          },
  };
}

export type BuiltServer = { server: GiftServer; state: SessionState; dispose(): void };

export type BuildOptions = {
  /** A session's server (else one for stateless requests, which refuse what needs a session). */
  stateful: boolean;
  /**
   * Whether the server sends its session's job events itself, until disposed (default: when
   * stateful); not for sessions whose notification stream another part serves (session-streams.ts).
   */
  forwardJobEvents?: boolean;
};

/** A fresh SDK server over the connection-independent `parts`. */
export function buildMcpServer(
  parts: McpParts,
  { stateful, forwardJobEvents: forward = stateful }: BuildOptions,
): BuiltServer {
  const server: GiftServer = new Server(SERVER_INFO, {
    capabilities: { tools: {}, resources: { subscribe: true }, prompts: {}, logging: {} },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: parts.validator,
  });
  const state: SessionState = { subscriptions: new Map() };
  const needsSession = (what: string) => {
    if (!stateful)
      throw new JsonRpcError(
        ErrorCode.InvalidRequest,
        `${what} needs a session: send initialize first and keep its Mcp-Session-Id.`,
      );
  };

  server.setRequestHandler(ListToolsRequestSchema, () => parts.tools.list);
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    parts.tools.call(request.params.name, request.params.arguments, toolContext(extra)),
  );
  server.setRequestHandler(ListResourcesRequestSchema, () => parts.resources.list);
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => parts.resources.templates);
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
    parts.resources.read(request.params.uri, callerOf(extra)),
  );
  server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
    needsSession("resources/subscribe");
    const { uri } = request.params;
    parts.resources.assertKnown(uri);
    const caller = callerOf(extra);
    const jobId = resultJobOf(uri);
    if (jobId !== undefined) {
      // someone else's job reads exactly as a missing one, as it does on resources/read
      const access = await parts.jobs.checkAccess(jobId, caller);
      if (!access.ok) throw parts.resources.unreadable(uri, access.error);
    }
    await state.cluster?.subscribe(uri, jobId);
    state.subscriptions.set(uri, caller.subject);
    // a job that ended before the subscription took hold told nobody: the update goes with the answer
    if (jobId !== undefined && (await parts.resources.ended(jobId, caller)))
      await extra.sendNotification({ method: "notifications/resources/updated", params: { uri } });
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    await state.cluster?.unsubscribe(request.params.uri);
    state.subscriptions.delete(request.params.uri);
    return {};
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => parts.prompts.list);
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    parts.prompts.get(request.params.name, request.params.arguments),
  );
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    needsSession("logging/setLevel");
    await state.cluster?.setLevel(request.params.level);
    state.logLevel = request.params.level;
    return {};
  });

  const unsubscribe = forward ? forwardJobEvents(server, state, parts.jobs) : () => {};
  return { server, state, dispose: unsubscribe };
}
