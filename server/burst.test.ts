/**
 * A burst of large starts against the server as it is started (main.ts, in its own process): 32
 * people start an analysis of a 2 MB staff list at the same moment. Their bodies are past the size
 * that is parsed in a worker thread, so they wait for the parser together; every one of them is
 * answered with a job, and /healthz, probed on a connection of its own, answers 200 throughout.
 */
import { StartBulkOutput, TOOL } from "../shared/tools.js";
import { employeeCsv } from "../test-kit/employee-csv.js";
import { startMainProcess, probeHealthz, type MainProcess } from "../test-kit/servers/main-process.js";
import { postRaw } from "../test-kit/servers/test-server.js";

const STARTS = 32;
const BODY_BYTES = 2 * 1024 * 1024;

let server: MainProcess;
let port: number;

beforeAll(async () => {
  // one anonymous subject starts them all: its quotas are lifted, as 32 people would each have their own
  server = await startMainProcess({
    STORE: "memory",
    QUOTA_UNFINISHED_JOBS: "100",
    QUOTA_JOBS_PER_HOUR: "1000",
    QUOTA_STORED_MB: "10000",
  });
  port = server.port;
});
afterAll(() => server?.stop());

const probe = () => probeHealthz(port);

/** A staff list of at least `bytes`, as CSV text. */
function csvOf(bytes: number): string {
  const sample = employeeCsv(1_000, { seed: 7 });
  const rows = Math.ceil((bytes / sample.length) * 1_000);
  return employeeCsv(rows, { seed: 7 });
}

it(`answers ${STARTS} concurrent starts of 2 MB each with a job, and /healthz throughout`, async () => {
  const csv = csvOf(BODY_BYTES);
  const mcpUrl = new URL(`http://127.0.0.1:${port}/mcp`);
  const bodies = Array.from({ length: STARTS }, (_, i) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id: i,
      method: "tools/call",
      params: { name: TOOL.startBulk, arguments: { csv, occasion: `Burst ${i}`, budgetPerPerson: 50 } },
    }),
  );
  expect(Math.min(...bodies.map((b) => Buffer.byteLength(b)))).toBeGreaterThanOrEqual(BODY_BYTES);

  const answers: string[] = [];
  let probing = true;
  const prober = (async () => {
    while (probing) {
      answers.push(await probe());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const starts = await Promise.all(
    bodies.map(async (body) => {
      const response = await postRaw(mcpUrl, body);
      const text = await response.text();
      return { status: response.status, retryAfter: response.headers.get("retry-after"), text };
    }),
  ).finally(() => (probing = false));
  await prober;

  const refused = starts.filter((s) => s.status !== 200);
  expect(refused.map((s) => `${s.status} ${s.text.slice(0, 200)}`)).toEqual([]);
  const jobIds = starts.map(({ text }) => {
    const data = /^data: (.*)$/m.exec(text)?.[1] ?? text;
    const { result } = JSON.parse(data) as { result: { isError?: boolean; structuredContent: unknown } };
    expect(result.isError).toBeFalsy();
    return StartBulkOutput.parse(result.structuredContent).jobId;
  });
  expect(new Set(jobIds).size).toBe(STARTS);
  expect(answers.length).toBeGreaterThan(0);
  expect(answers.filter((a) => a !== "200")).toEqual([]);
}, 120_000);
