/**
 * Processes of the real entry points for tests of several instances on one Redis: a server
 * (server/main.ts) or a worker (server/worker.ts) run with tsx, each with its own environment,
 * ready once it has printed its first line; ended by its PID, gently or with SIGKILL. And nginx in
 * front of servers, configured as deployed (deploy/nginx.conf), for clients of any kind.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { startNginx, type Routed } from "./nginx.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export type Instance = {
  pid: number;
  /** The server's /mcp URL (a worker has none). */
  mcpUrl?: URL;
  /** Its INSTANCE_ID, the tag of its session ids, if it was given one. */
  tag?: string;
  /** Everything it printed on stderr so far. */
  stderr(): string;
  /** Whether it exited. */
  gone(): boolean;
  /** SIGKILL: no close, no cleanup. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL after 5 s. */
  stop(): Promise<void>;
};

/** Starts `server/main.ts` or `server/worker.ts` with `env` added; resolves once it is up. */
export async function startInstance(entry: "main" | "worker", env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ["--import", "tsx", `server/${entry}.ts`], {
    cwd: ROOT,
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start server/${entry}.ts`);
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", () => reject(new Error(`server/${entry}.ts exited before it was up:\n${stderr}`)));
  });
  const port = /:(\d+)\/mcp/.exec(first)?.[1];
  return {
    pid,
    mcpUrl: port === undefined ? undefined : new URL(`http://127.0.0.1:${port}/mcp`),
    tag: env.INSTANCE_ID,
    stderr: () => stderr,
    gone,
    async kill() {
      if (gone()) return;
      process.kill(pid, "SIGKILL");
      await exited;
    },
    async stop() {
      if (gone()) return;
      process.kill(pid, "SIGTERM");
      const killer = setTimeout(() => process.kill(pid, "SIGKILL"), 5000);
      await exited;
      clearTimeout(killer);
    },
  };
}

export type Balancer = {
  /** The balancer's /mcp URL, for any client. */
  mcpUrl: URL;
  /** Every request it has passed on and answered so far: to which instance, with which MCP headers. */
  routed: () => Routed[];
  close: () => Promise<void>;
};

/** The tags deploy/nginx.conf routes sessions by, one per instance in the order it lists them. */
const DEPLOYED_TAGS = ["a", "b"];

/**
 * Starts nginx with the deployment example (deploy/nginx.conf) in front of `instances`, tagged as
 * it names them (`a`, `b`): a session's requests to its instance, the rest round robin, streams
 * unbuffered, as deployed.
 */
export async function startBalancer(instances: Instance[]): Promise<Balancer> {
  const tags = instances.map((instance) => instance.tag);
  if (tags.some((tag, i) => tag !== undefined && tag !== DEPLOYED_TAGS[i]))
    throw new Error(`instances tagged ${tags.join(", ")}: deploy/nginx.conf routes ${DEPLOYED_TAGS.join(", ")}`);
  const nginx = await startNginx(instances.map((instance) => Number(instance.mcpUrl!.port)));
  return { mcpUrl: new URL("/mcp", nginx.origin), routed: nginx.routed, close: nginx.close };
}
