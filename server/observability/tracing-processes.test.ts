/**
 * One trace across processes: a server (server/main.ts, WORKERS=0) and a worker process
 * (server/worker.ts) on the real Redis, both sending their spans as OTLP/HTTP JSON to a small
 * collector this test runs. A call that starts a job, its queueing, its wait in the queue and its
 * run on the worker, each stage and the delivery of its result make one trace, with the parents
 * right across the two processes.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { Redis } from "ioredis";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { deleteKeysUnder, redisUnreachable, redisUrl } from "../../test-kit/redis.js";
import { startInstance, type Instance } from "../../test-kit/servers/instances.js";
import { connectClient, readJobHistory, startJob } from "../../test-kit/servers/test-server.js";

type OtlpValue = { stringValue?: string; intValue?: string | number };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: OtlpValue }[];
};
type OtlpExport = {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: OtlpValue }[] };
    scopeSpans?: { spans?: OtlpSpan[] }[];
  }[];
};
/** A span as received, with the `service.name` of the process that sent it. */
type Received = OtlpSpan & { service?: string; attr: Record<string, string | undefined> };

/** A collector of OTLP/HTTP JSON traces: every span posted to /v1/traces. */
async function startCollector(): Promise<{ url: string; spans: Received[]; server: Server }> {
  const spans: Received[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      if (req.url === "/v1/traces") {
        for (const resource of (JSON.parse(body) as OtlpExport).resourceSpans ?? []) {
          const service = resource.resource?.attributes?.find((a) => a.key === "service.name")?.value.stringValue;
          for (const scope of resource.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              const attr = Object.fromEntries((span.attributes ?? []).map((a) => [a.key, a.value.stringValue]));
              spans.push({ ...span, service, attr });
            }
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, spans, server };
}

const unreachable = await redisUnreachable("the trace across processes");
const prefix = `giftgenius-test:${randomUUID()}:`;

describe.runIf(unreachable === undefined)("one trace across a server and a worker process", () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  const running: Instance[] = [];
  beforeAll(async () => {
    collector = await startCollector();
    const env = {
      STORE: "redis",
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_BSP_SCHEDULE_DELAY: "100", // the SDK's batch goes out every 100 ms instead of 5 s
    };
    running.push(
      ...(await Promise.all([startInstance("main", { ...env, WORKERS: "0" }), startInstance("worker", env)])),
    );
  }, 60_000);
  afterAll(async () => {
    await Promise.all(running.map((i) => i.stop()));
    collector?.server.close();
    const admin = new Redis(redisUrl);
    await deleteKeysUnder(admin, prefix);
    await admin.quit();
  });

  it("shows the call, the queue wait, the run on the worker, each stage and the delivery, parents right", async () => {
    const [server] = running;
    const client = await connectClient(server.mcpUrl!);
    const { jobId } = await startJob(client, { occasion: "holiday", budgetPerPerson: 50, csv: employeeCsv(200) });
    await vi.waitFor(async () => expect((await readJobHistory(client, jobId)).last.status).toBe("completed"), {
      timeout: 30_000,
      interval: 200,
    });
    await client.close();

    const spans = collector.spans;
    const find = (name: string) =>
      spans.find((s) => s.name === name && (s.attr["messaging.message.id"] ?? jobId) === jobId);
    await vi.waitFor(() => expect(find("deliver result")).toBeDefined(), { timeout: 15_000 });
    const call = find("tools/call start_bulk_gift_analysis")!;
    const send = find("send jobs")!;
    const wait = find("queue wait")!;
    const run = find("process jobs")!;
    expect(call).toMatchObject({ service: "giftgenius", kind: 2 }); // SERVER
    expect(call.attr).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "start_bulk_gift_analysis",
      "mcp.session.id": expect.any(String),
      "jsonrpc.request.id": expect.any(String),
    });
    expect(send).toMatchObject({ service: "giftgenius", kind: 4, parentSpanId: call.spanId }); // PRODUCER
    expect(wait).toMatchObject({ service: "giftgenius-worker", parentSpanId: send.spanId });
    expect(run).toMatchObject({ service: "giftgenius-worker", kind: 5, parentSpanId: send.spanId }); // CONSUMER
    const underRun = spans.filter((s) => s.parentSpanId === run.spanId);
    expect(underRun.map((s) => s.name)).toEqual([
      "stage parse",
      "stage extract",
      "stage match",
      "stage compose",
      "deliver result",
    ]);
    const trace = [call, send, wait, run, ...underRun];
    expect(new Set(trace.map((s) => s.traceId)).size).toBe(1);
  }, 60_000);
});
