/**
 * For tests: a real redis-server of their own on a free port, started and killed (SIGKILL, by its
 * process) at will, for what a shared Redis cannot be put through: going down, running out of memory.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

/** Options for a Redis that comes back with its data after a kill: an append-only file in `dir`, synced at every write. */
export const persistent = (dir: string): string[] => ["--appendonly", "yes", "--appendfsync", "always", "--dir", dir];

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return address.port;
}

/** Starts redis-server on `port` with `options` (e.g. `persistent(dir)`); resolves once it accepts connections. */
export function startRedis(port: number, options: string[] = []): Promise<ChildProcess> {
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", ...options];
  const child = spawn("redis-server", args);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("Ready to accept connections")) resolve(child);
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`redis-server exited (${code}): ${out.slice(-500)}`)));
  });
}

export function killRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}
