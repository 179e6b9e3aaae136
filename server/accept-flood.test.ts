/**
 * A connection flood against the server as it is started (main.ts, SQLite store), with its
 * open-file limit set lower than the flood: idle connections on 127.0.0.1, as many as this
 * process may open up to 24,000, held for a while, while /healthz is probed every 100 ms on a
 * connection of its own (as an orchestrator probes). Every probe is answered 200 throughout, and
 * an MCP request after the flood is answered; the server holds no more connections than its limit.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectionLimit, openFileLimit } from "./accept-limit.js";
import { startMainProcess, probeHealthz, type MainProcess } from "../test-kit/servers/main-process.js";
import { postRaw } from "../test-kit/servers/test-server.js";

/** The server's open-file limit, lower than the flood so the flood would exhaust it. */
const SERVER_FDS = 8_192;
/** Descriptors this process keeps for itself besides the flood. */
const OWN_RESERVE = 2_000;
const FLOOD = Math.min(24_000, (openFileLimit() ?? 4_096) - OWN_RESERVE);
const HOLD_MS = 3_000;

const dir = mkdtempSync(join(tmpdir(), "giftgenius-flood-"));
let server: MainProcess;
let port: number;

beforeAll(async () => {
  server = await startMainProcess({ STORE: "sqlite", DATA_DIR: dir }, SERVER_FDS);
  port = server.port;
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const probe = () => probeHealthz(port);

/** Idle connections the server closed (or refused). */
let closedByServer = 0;
/** An idle connection: it sends nothing, and reads what comes (the server's close); resolves once connected or refused. */
const idle = () =>
  new Promise<Socket>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.on("error", () => {});
    socket.once("close", () => closedByServer++);
    socket.resume();
    socket.once("connect", () => resolve(socket));
    socket.once("error", () => resolve(socket));
  });

it(`answers /healthz every 100 ms under a flood of ${FLOOD} idle connections`, async () => {
  const answers: string[] = [];
  let probing = true;
  const prober = (async () => {
    while (probing) {
      const started = performance.now();
      answers.push(await probe());
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 100 - (performance.now() - started))));
    }
  })();
  const flood: Socket[] = [];
  try {
    const began = performance.now();
    for (let i = 0; i < FLOOD; i += 500) {
      flood.push(...(await Promise.all(Array.from({ length: Math.min(500, FLOOD - i) }, idle))));
    }
    const opened = performance.now() - began;
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
    probing = false;
    await prober;
    const limit = connectionLimit(SERVER_FDS);
    console.log(
      `flood: ${FLOOD} idle connections opened in ${(opened / 1000).toFixed(1)} s and held ${HOLD_MS / 1000} s; ` +
        `server accept limit ${limit} (open-file limit ${SERVER_FDS}); ${closedByServer} closed by the server; ` +
        `/healthz: ${answers.filter((a) => a === "200").length} of ${answers.length} probes answered 200`,
    );
    expect(answers.length).toBeGreaterThan(HOLD_MS / 100 / 2);
    expect(answers.filter((a) => a !== "200")).toEqual([]);
    // the flood's oldest connections made way: the server kept within its limit
    expect(FLOOD - closedByServer).toBeLessThanOrEqual(limit);
  } finally {
    probing = false;
    for (const socket of flood) socket.destroy();
  }
  // and the server still does its work
  const initialize = await postRaw(
    new URL(`http://127.0.0.1:${port}/mcp`),
    JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "flood-test", version: "1" } },
    }),
  );
  expect(initialize.status).toBe(200);
  await initialize.body?.cancel();
}, 120_000);
