/**
 * The entry point as a user meets it: started on a port that is taken, it says so in one line
 * that names the port and the PORT variable, and exits, instead of a stack trace.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

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

it("refuses sign-in settings that cannot work in one line naming the variable, and exits with 1", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    env: { ...process.env, PORT: "0", STORE: "memory", AUTH_ISSUER: "https://issuer.example", PUBLIC_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  expect(code).toBe(1);
  expect(stderr.trim().split("\n")).toEqual([
    "AUTH_ISSUER is set but PUBLIC_URL is not: set PUBLIC_URL to this server's public base URL.",
  ]);
});
