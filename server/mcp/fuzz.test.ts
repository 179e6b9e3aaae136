/**
 * Fuzzing POST /mcp with generated JSON-RPC-ish bodies, stateless and in one session: never a
 * 5xx, never a body that is not JSON (202 answers have none), never a hang, and the server still
 * answers afterwards.
 */
import fc from "fast-check";
import { FILE_TOOL } from "../../shared/files.js";
import { TOOL } from "../../shared/tools.js";
import { openRawSession, postRaw, startTestServer, type TestServer } from "../../test-kit/servers/test-server.js";

/** Generated bodies per run; about 10 s on a 2-core machine. */
const RUNS = 3_000;
const REQUEST_TIMEOUT_MS = 5_000;

const METHODS = [
  "initialize",
  "ping",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "logging/setLevel",
  "completion/complete",
  "notifications/initialized",
  "notifications/cancelled",
  "notifications/progress",
];
const TOOLS = [
  "suggest_gifts",
  "start_bulk_gift_analysis",
  "get_job_events",
  "get_job_result",
  "cancel_job",
  "wait_for_job",
];

let server: TestServer;
let sessionHeaders: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer();
  sessionHeaders = (await openRawSession(server.mcpUrl)).headers;
});
afterAll(async () => {
  await server.close();
});

const id = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 20 }),
  fc.constantFrom(null, true, 1.5, 1e308, -0, [], {}),
  fc.jsonValue({ maxDepth: 2 }),
);
/** Small numbers mostly, so waits and pages stay short when a generated call is valid. */
const argValue = fc.oneof(
  fc.integer({ min: -5, max: 50 }),
  fc.string({ maxLength: 30 }),
  fc.constantFrom("name,department,interests\nAda,Eng,books", "birthday", "00000000-0000-4000-8000-000000000000"),
  fc.jsonValue({ maxDepth: 3 }),
);
const toolArgs = fc.dictionary(
  fc.constantFrom(
    "occasion",
    "budget",
    "count",
    "recipient",
    "csv",
    "employees",
    "budgetPerPerson",
    "jobId",
    "afterSeq",
    "limit",
    "offset",
    "locale",
    "junk",
  ),
  argValue,
  { maxKeys: 5 },
);
const params = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 4 }),
  fc.record(
    {
      name: fc.oneof(fc.constantFrom(...TOOLS, "gift_congrats_style"), fc.string({ maxLength: 20 })),
      arguments: fc.oneof(toolArgs, fc.jsonValue({ maxDepth: 2 })),
      uri: fc.oneof(fc.constantFrom("gifts://catalog", "gifts://jobs/x/result"), fc.string({ maxLength: 30 })),
      level: fc.constantFrom("debug", "info", "loud"),
      _meta: fc.oneof(fc.record({ progressToken: id }), fc.jsonValue({ maxDepth: 2 })),
    },
    { requiredKeys: [] },
  ),
);
const message = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant("2.0"), fc.constant("2.0"), fc.jsonValue({ maxDepth: 1 })),
    id,
    method: fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 30 })),
    params,
    result: fc.jsonValue({ maxDepth: 2 }),
    error: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  { weight: 6, arbitrary: message.map((m) => JSON.stringify(m)) },
  { weight: 2, arbitrary: fc.array(message, { maxLength: 4 }).map((ms) => JSON.stringify(ms)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
);

/** Each JSON message of an answer: the body itself, or the data of each SSE event. */
function messagesOf(contentType: string, text: string): unknown[] {
  if (!contentType.startsWith("text/event-stream")) return [JSON.parse(text)];
  return text
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).trim())
    .filter((data) => data !== "")
    .map((data) => JSON.parse(data));
}

describe("fuzzing POST /mcp", () => {
  it(`answers ${RUNS} generated bodies without a 5xx, a non-JSON body or a hang`, async () => {
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(body, fc.boolean(), async (text, inSession) => {
        const response = await fetch(server.mcpUrl, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...(inSession ? sessionHeaders : {}),
          },
          body: text,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const answer = await response.text();
        expect(response.status, answer.slice(0, 300)).toBeLessThan(500);
        if (response.status === 202) {
          expect(answer).toBe("");
          return;
        }
        const messages = messagesOf(response.headers.get("content-type") ?? "", answer);
        expect(messages.length, answer.slice(0, 300)).toBeGreaterThan(0);
        for (const m of messages) expect(m).toMatchObject({ jsonrpc: "2.0" });
        expect(answer).not.toMatch(/\n\s+at |node:internal|\/work\//);
      }),
      { numRuns: RUNS },
    );
    const seconds = (Date.now() - started) / 1000;
    // a hang is caught per request by REQUEST_TIMEOUT_MS; the run's length is reported, not asserted
    console.info(`fuzz: ${RUNS} bodies in ${seconds.toFixed(1)} s`);

    const list = await postRaw(server.mcpUrl, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    expect(((await list.json()) as { result: { tools: unknown[] } }).result.tools.length).toBe(
      Object.keys(TOOL).length + Object.keys(FILE_TOOL).length,
    );
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
  }, 120_000);
});
