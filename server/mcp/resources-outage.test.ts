/**
 * A job's result resource while the job store is down, against a redis-server this test starts
 * and kills: resources/read and resources/subscribe say the store is unreachable (a JSON-RPC
 * internal error, retryable), never "Resource not found", and read the result again once it is back.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { TOOL, URI } from "../../shared/tools.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import { freePort, killRedis, persistent, startRedis } from "../../test-kit/servers/redis-server.js";
import { createRedisStore } from "../jobs/stores/redis.js";
import { callTool, connectClient, startJob, startTestServer } from "../../test-kit/servers/test-server.js";

const dir = mkdtempSync(join(tmpdir(), "giftgenius-resources-outage-"));
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) await killRedis(child);
  rmSync(dir, { recursive: true, force: true });
});

/** The JSON-RPC error a call ends with. */
async function rpcError(call: Promise<unknown>): Promise<McpError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof McpError)) throw new Error(`expected a JSON-RPC error, got ${String(error)}`);
  return error;
}

it("says the store is unreachable on resources/read and resources/subscribe, and reads again once it is back", async () => {
  const port = await freePort();
  children.push(await startRedis(port, persistent(dir)));
  const jobs = createJobService({
    store: createRedisStore({ url: `redis://127.0.0.1:${port}`, keyPrefix: "resources-outage:" }),
    match: matchGifts,
  });
  const server = await startTestServer({ jobs });
  const client = await connectClient(server.mcpUrl);
  try {
    const { jobId } = await startJob(client, { csv: employeeCsv(5), occasion: "holiday", budgetPerPerson: 40 });
    await callTool(client, TOOL.waitForJob, { jobId, timeoutMs: 20_000 });
    const uri = URI.jobResult(jobId);
    expect((await client.readResource({ uri })).contents).toHaveLength(1);

    await killRedis(children[0]);
    for (const call of [() => client.readResource({ uri }), () => client.subscribeResource({ uri })]) {
      const error = await rpcError(call());
      expect(error.code).toBe(-32603);
      expect(error.message).toContain("The job store is unreachable at the moment");
      expect(error.message).not.toContain("not found");
      expect(error.data).toMatchObject({ uri, reason: { code: "store_unavailable", retryable: true } });
    }
    // a URI that names nothing is still not found: only a job's resources need the store
    expect((await rpcError(client.readResource({ uri: "gifts://nothing" }))).code).toBe(-32002);

    children.push(await startRedis(port, persistent(dir)));
    await vi.waitFor(async () => expect((await jobs.health()).store).toBe("ok"), { timeout: 20_000 });
    expect((await client.readResource({ uri })).contents).toHaveLength(1);
  } finally {
    await client.close();
    await server.close();
  }
}, 60_000);
