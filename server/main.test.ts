/**
 * The entry point as a user meets it: started on a port that is taken, with a setting that cannot
 * work, or on a DATA_DIR where the database cannot be opened, it says so in one line that names the
 * port, the variable or the path and what to do, and exits with 1, instead of a stack trace.
 * Started with STORE=redis and no Redis, it serves, says so in one line (not one per reconnection)
 * and in a 503 from /healthz, and says in one more line when Redis is there.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort, killRedis, startRedis } from "../test-kit/servers/redis-server.js";
import { logMessages } from "../test-kit/observability/log-lines.js";
import { openRawSession, postRaw } from "../test-kit/servers/test-server.js";
import { TOOL } from "../shared/tools.js";

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "main-test", version: "1" } },
});

/**
 * Runs main.ts with `env` added until it exits (a server that starts after all is stopped after
 * a minute: tsx compiles the server first, which takes tens of seconds on a busy machine); its
 * exit code and the messages of its stderr lines.
 */
async function runMain(env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const stop = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearTimeout(stop);
  return { code, lines: logMessages(stderr) };
}

let taken: Server;
let port: number;
beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  port = (taken.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

it("names the taken port and the PORT variable in one line, and exits with 1", async () => {
  const { code, lines } = await runMain({
    PORT: String(port),
    STORE: "memory",
    DATA_DIR: mkdtempSync(join(tmpdir(), "gg-")),
  });
  expect(code).toBe(1);
  expect(lines).toEqual([
    `Port ${port} on 127.0.0.1 is already in use: stop what holds it, or set PORT to another port.`,
  ]);
});

it("refuses sign-in settings that cannot work in one line naming the variable, and exits with 1", async () => {
  const { code, lines } = await runMain({ STORE: "memory", AUTH_ISSUER: "https://issuer.example", PUBLIC_URL: "" });
  expect(code).toBe(1);
  expect(lines).toEqual(["AUTH_ISSUER is set but PUBLIC_URL is not: set PUBLIC_URL to this server's public base URL."]);
});

it("refuses a value that cannot work in one line naming the variable and what it takes, and exits with 1", async () => {
  const { code, lines } = await runMain({ STORE: "memory", PORT: "http" });
  expect(code).toBe(1);
  expect(lines).toEqual(["PORT=http is not a port: a whole number from 0 to 65535."]);
});

describe("a DATA_DIR where the database cannot be opened", () => {
  const base = mkdtempSync(join(tmpdir(), "gg-data-"));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const cases: [string, () => string, string][] = [
    ["is a file", () => file("a-file"), "DATA_DIR is a file, not a directory"],
    ["lies under a file", () => join(file("a-parent"), "data"), "a part of DATA_DIR is a file, not a directory"],
    [
      "holds a directory where the database file goes",
      () => dir("db-is-dir", true),
      "the database file cannot be created or opened there",
    ],
    ["holds a file that is not a database", () => dir("not-a-db", false), "the file is not a SQLite database"],
  ];
  function file(name: string) {
    writeFileSync(join(base, name), "not a directory\n");
    return join(base, name);
  }
  function dir(name: string, dbIsDir: boolean) {
    const dataDir = join(base, name);
    mkdirSync(dataDir);
    if (dbIsDir) mkdirSync(join(dataDir, "giftgenius.db"));
    else writeFileSync(join(dataDir, "giftgenius.db"), "name,department\n".repeat(500));
    return dataDir;
  }

  it.concurrent.each(cases)(
    "that %s gives one line naming the file, why and what to do, and exit code 1",
    async (_, make, why) => {
      const dataDir = make();
      const { code, lines } = await runMain({ STORE: "sqlite", DATA_DIR: dataDir });
      expect(lines).toEqual([
        `Cannot open the job database ${resolve(dataDir, "giftgenius.db")}: ${why}. Set DATA_DIR to a directory this ` +
          "user can write, or use STORE=memory to keep jobs in memory only.",
      ]);
      expect(code).toBe(1);
    },
    90_000,
  );
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
  const connectionLines = () => logMessages(stderr).filter((line) => line.startsWith("jobs: Redis at "));
  let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
  try {
    await vi.waitFor(() => expect(stdout).toContain("GiftGenius MCP server"), { timeout: 20_000 });
    expect(await health()).toBe(503);
    // a session needs no Redis: it opens, and a call that needs the job store is told to retry, not an internal error
    const session = await openRawSession(new URL(`http://127.0.0.1:${httpPort}/mcp`));
    const listed = await session.request("tools/call", { name: TOOL.listJobs, arguments: {} });
    expect(listed.result).toMatchObject({
      isError: true,
      structuredContent: { error: { code: "store_unavailable", retryable: true } },
    });
    // some reconnection attempts go by
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(connectionLines()).toEqual([
      expect.stringMatching(/^jobs: Redis at 127\.0\.0\.1:\d+ is unreachable for .+ \(.+\); retrying/),
    ]);
    redis = await startRedis(redisPort);
    await vi.waitFor(async () => expect(await health()).toBe(200), { timeout: 20_000 });
    // told once every connection (job store and queue, worker) has Redis back
    await vi.waitFor(() => expect(connectionLines()).toHaveLength(2), { timeout: 5_000 });
    expect(connectionLines()[1]).toMatch(/^jobs: Redis at 127\.0\.0\.1:\d+ is reachable again, after \d+ s\.$/);
    expect((await postRaw(new URL(`http://127.0.0.1:${httpPort}/mcp`), INITIALIZE)).status).toBe(200);
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    if (redis) await killRedis(redis);
  }
}, 60_000);
