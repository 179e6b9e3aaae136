/**
 * Servers under load run in child processes of their own (`node --import tsx bench/targets/x.ts`),
 * so the load generator never shares their event loop. A target prints one JSON line on stdout
 * once it listens (at least its port); `stop` ends it by its PID, and a target whose parent is
 * gone ends itself (see `endWithParent`).
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import * as z from "zod/mini";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** What a target says once it listens: its port and, for the ceiling, the job it answers about. */
const TargetInfo = z.object({ port: z.number().check(z.int()), jobId: z.optional(z.string()) });
type TargetInfo = z.infer<typeof TargetInfo>;

export type Target = { name: string; pid: number; info: TargetInfo; url: URL; stop(): Promise<void> };

/** Starts `bench/targets/<name>.ts` with `env` added and waits for its JSON line. */
export async function startTarget(name: string, env: Record<string, string> = {}): Promise<Target> {
  const child = spawn(process.execPath, ["--import", "tsx", `bench/targets/${name}.ts`], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    // the IPC channel is only there so a target sees this process go, even when it crashes
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  child.channel?.unref();
  const pid = child.pid;
  if (pid === undefined || child.stdout === null) throw new Error(`could not start ${name}`);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const lines = createInterface({ input: child.stdout });
  const info = await new Promise<TargetInfo>((resolve, reject) => {
    const fail = () => reject(new Error(`target ${name} exited before it listened`));
    child.once("exit", fail);
    lines.once("line", (line) => {
      child.off("exit", fail);
      try {
        resolve(TargetInfo.parse(JSON.parse(line)));
      } catch (error) {
        reject(new Error(`target ${name} printed ${line}: ${String(error)}`));
      }
    });
  }).catch((error) => {
    process.kill(pid, "SIGKILL");
    throw error;
  });
  lines.on("line", (line) => process.stderr.write(`[${name}] ${line}\n`));
  return {
    name,
    pid,
    info,
    url: new URL(`http://127.0.0.1:${info.port}/mcp`),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(pid, "SIGTERM");
      const killer = setTimeout(() => process.kill(pid, "SIGKILL"), 3000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** For targets: shut down (through the SIGTERM handler) when the benchmark process goes away. */
export function endWithParent(): void {
  process.once("disconnect", () => process.kill(process.pid, "SIGTERM"));
}
