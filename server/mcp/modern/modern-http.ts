/**
 * The 2026-07-28 leg of `/mcp`: the SDK's `createMcpHandler` with a fresh server per request, and
 * our `subscriptions/listen`. A call asking for progress is SSE from the start, so keep-alives
 * reach proxies that cut silent calls. The SDK names only 2026-07-28 revisions: 2025-11-25 is added.
 */
import {
  classifyInboundRequest,
  createMcpHandler,
  PROTOCOL_VERSION_META_KEY,
  ProtocolErrorCode,
  type AuthInfo,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type Server,
} from "@modelcontextprotocol/server";
import { subjectOf } from "../../auth/subject.js";
import type { Notice } from "../../files/file-words.js";
import { jsonRpcError } from "../../json-rpc-error.js";
import { contextSlot } from "../../observability/request-context.js";
import type { JobService } from "../../jobs/job-service.js";
import { paramsError } from "../http/request-guard.js";
import { createListen } from "./listen.js";

const LEGACY_VERSION = "2025-11-25";
export const MODERN_VERSION = "2026-07-28";

type Message = { id?: string | number; method?: string; params?: { _meta?: unknown } };

/**
 * The SDK reports refusals through the same `onerror` as failures, so reports wait for the answer:
 * a 4xx is one warning line with its code, anything else reaches `onError`.
 */
type Held = { errors: Error[] | undefined };

export function createModernHttp({
  jobs,
  build,
  keepAliveMs = 10_000,
  onError = () => {},
  onNotice = () => {},
}: {
  jobs: JobService;
  build: () => Server;
  keepAliveMs?: number;
  onError?: (error: Error) => void;
  onNotice?: Notice;
}) {
  const held = contextSlot<Held>("held");
  const report = (error: Error) => {
    const errors = held.get()?.errors;
    if (errors) errors.push(error);
    else onError(error);
  };
  const listen = createListen({ jobs, keepAliveMs, onError: report });
  const options = { legacy: "reject", keepAliveMs, onerror: report } as const;
  const plain = createMcpHandler(build, options);
  const streamed = createMcpHandler(build, { ...options, responseMode: "sse" });

  return {
    /** `checked`: the SDK's classification of the request (`modernRoute`). */
    async handle(req: Request, body: unknown, checked: Route, wantsProgress: boolean, auth?: AuthInfo) {
      const method = (body as Message).method;
      const slot: Held = { errors: [] };
      const response = await held.run(slot, () => route(req, body, checked, wantsProgress, auth));
      const errors = slot.errors ?? [];
      slot.errors = undefined;
      const refused = response.status >= 400 && response.status < 500;
      const answer = refused || method === "server/discover" ? await jsonOf(response) : undefined;
      const why = errors[0]?.message ?? answer?.error?.message;
      const notice = { status: response.status, code: answer?.error?.code };
      if (refused) onNotice(`Refused a 2026-07-28 ${method ?? "request"}: ${why}`, notice);
      else for (const error of errors) onError(error);
      return answer && (method === "server/discover" || response.status === 400)
        ? withLegacyVersions(response, answer)
        : response;
    },
    async close() {
      listen.close();
      await Promise.all([plain.close(), streamed.close()]);
    },
  };

  async function route(req: Request, body: unknown, checked: Route, wantsProgress: boolean, auth?: AuthInfo) {
    const message = body as Message;
    const { id = null, method } = message;
    const invalid = checked.kind === "modern" ? paramsError(body as JSONRPCMessage) : undefined;
    if (invalid) return Response.json(invalid);
    if (method === "subscriptions/listen") {
      if (checked.kind === "reject")
        return jsonRpcError(checked.httpStatus, checked.code, checked.message, checked.data, id);
      if (id !== null) return listen.serve({ id, params: message.params }, { subject: subjectOf(auth) }, req.signal);
    }
    return (wantsProgress ? streamed : plain).fetch(req, { parsedBody: body, authInfo: auth });
  }
}

/** How the SDK classifies a request, read from its headers and parsed body. */
export type Route = ReturnType<typeof classifyInboundRequest>;

/** The SDK's classification, or undefined for 2025-11-25; a revision in `_meta` makes any but `initialize` this leg's. */
export function modernRoute(req: Request, body: unknown): Route | undefined {
  const message = body as Message | null;
  const meta = message?.params?._meta;
  const claims = typeof meta === "object" && meta !== null && PROTOCOL_VERSION_META_KEY in meta;
  const key = claims ? judgedKey(req, message!) : undefined;
  const known = key === undefined ? undefined : judged.get(key);
  if (known)
    return { kind: "modern", messageKind: "request", message: message as JSONRPCRequest, classification: known };
  const route = classifyInboundRequest({
    httpMethod: req.method,
    protocolVersionHeader: req.headers.get("mcp-protocol-version") ?? undefined,
    mcpMethodHeader: req.headers.get("mcp-method") ?? undefined,
    mcpNameHeader: req.headers.get("mcp-name") ?? undefined,
    body,
  });
  if (key !== undefined && route.kind === "modern") {
    if (judged.size >= MAX_JUDGED) judged.clear();
    judged.set(key, route.classification);
  }
  return (claims && message?.method !== "initialize") || route.kind !== "legacy" ? route : undefined;
}

/**
 * The SDK's verdicts on 2026-07-28 requests, by method and envelope. The SDK classifies a body with
 * zod parses that cost about 40 % of a plain call; a client sends one envelope with every request,
 * and once `http-body.ts` has checked the JSON-RPC shape the verdict depends on nothing else
 * (`modern-route.test.ts` holds it to the SDK's). A progress token is fresh on each call: such calls
 * stream, and are classified each time.
 */
type Classification = Extract<Route, { kind: "modern" }>["classification"];
const judged = new Map<string, Classification>();
const MAX_JUDGED = 1_000;
const MAX_KEY_CHARS = 2_048;

/** The key of a request whose headers repeat its envelope's revision and its method exactly, or undefined. */
function judgedKey(req: Request, { id, method, params }: Message): string | undefined {
  const meta = params!._meta as Record<string, unknown>;
  const revision = meta[PROTOCOL_VERSION_META_KEY];
  const plain = id !== undefined && method !== undefined && method !== "initialize" && revision === MODERN_VERSION;
  if (!plain || req.method !== "POST" || req.headers.get("mcp-protocol-version") !== revision) return undefined;
  if (req.headers.get("mcp-method") !== method || meta.progressToken !== undefined) return undefined;
  const key = `${method}\n${JSON.stringify(meta)}`;
  return key.length <= MAX_KEY_CHARS ? key : undefined;
}

type Answer = {
  result?: { supportedVersions?: string[] };
  error?: { code?: number; message?: string; data?: { supported?: string[] } };
};

/** The JSON-RPC answer of a JSON response (nothing for any other). */
async function jsonOf(response: Response): Promise<Answer | undefined> {
  if (!response.headers.get("content-type")?.startsWith("application/json")) return undefined;
  return (await response
    .clone()
    .json()
    .catch(() => undefined)) as Answer | undefined;
}

/** The SDK names only its 2026-07-28 revisions, in discovery and in -32022; this endpoint serves 2025-11-25 too. */
function withLegacyVersions(response: Response, answer: Answer): Response {
  const versions =
    answer.error?.code === ProtocolErrorCode.UnsupportedProtocolVersion
      ? answer.error.data?.supported
      : answer.result?.supportedVersions;
  if (!versions || versions.includes(LEGACY_VERSION)) return response;
  versions.push(LEGACY_VERSION);
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(answer), { status: response.status, headers });
}
