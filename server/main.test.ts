/**
 * The entry point as a user meets it: started on a port that is taken, it says so in one line
 * that names the port and the PORT variable, and exits, instead of a stack trace. Started with
 * STORE=redis and no Redis, it serves, says so in one line (not one per reconnection) and in a 503
 * from /healthz, and says in one more line when Redis is there.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, killRedis, startRedis } from "./jobs/stores/redis-server.js";

let taken: Server;
let port: number;
beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  port = (taken.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

it("names the taken port and the PORT variable in one line, and exits with 1", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      STORE: "memory",
      DATA_DIR: mkdtempSync(join(tmpdir(), "gg-")),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  expect(code).toBe(1);
  expect(stderr.trim().split("\n")).toEqual([
    `Port ${port} on 127.0.0.1 is already in use: stop what holds it, or set PORT to another port.`,
  ]);
});

it("serves without its Redis, logging the loss once and the return once, with /healthz 503 then 200", async () => {
  const [httpPort, redisPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    env: {
      ...process.env,
      PORT: String(httpPort),
      HOST: "127.0.0.1",
      STORE: "redis",
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const health = async () => (await fetch(`http://127.0.0.1:${httpPort}/healthz`)).status;
  const connectionLines = () => stderr.split("\n").filter((line) => line.startsWith("jobs: the Redis job store"));
  let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
  try {
    await vi.waitFor(() => expect(stdout).toContain("GiftGenius MCP server"), { timeout: 20_000 });
    expect(await health()).toBe(503);
    // some reconnection attempts go by
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(connectionLines()).toEqual([
      expect.stringMatching(/^jobs: the Redis job store is unreachable \(.+\); retrying\.$/),
    ]);
    redis = await startRedis(redisPort);
    await vi.waitFor(async () => expect(await health()).toBe(200), { timeout: 20_000 });
    expect(connectionLines()).toHaveLength(2);
    expect(connectionLines()[1]).toBe("jobs: the Redis job store is reachable again.");
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    if (redis) await killRedis(redis);
  }
}, 60_000);
