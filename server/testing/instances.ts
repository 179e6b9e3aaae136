/**
 * Processes of the real entry points for tests of several instances on one Redis: a server
 * (server/main.ts) or a worker (server/worker.ts) run with tsx, each with its own environment,
 * ready once it has printed its first line; ended by its PID, gently or with SIGKILL. And a load
 * balancer without affinity in front of servers, as a real HTTP proxy, for clients of any kind.
 */
import { spawn } from "node:child_process";
import { createServer, request, type IncomingHttpHeaders } from "node:http";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

export type Instance = {
  pid: number;
  /** The server's /mcp URL (a worker has none). */
  mcpUrl?: URL;
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

/** One request a balancer passed on: to which instance, and what its standard MCP headers named. */
type Routed = { port: string; method?: string; name?: string };

export type Balancer = {
  /** The balancer's /mcp URL, for any client. */
  mcpUrl: URL;
  /** Every request it passed on, in order. */
  readonly routed: readonly Routed[];
  close(): Promise<void>;
};

/** Headers of one connection (RFC 9110 7.6.1), which a proxy does not pass on. */
const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"];

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept = { ...headers };
  for (const name of HOP_BY_HOP) delete kept[name];
  return kept;
}

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * Starts an HTTP proxy on 127.0.0.1 that sends each request to the next of `instances`, in turn,
 * as a load balancer without sticky routing does; bodies stream both ways, and a client that goes
 * away ends the request it made upstream.
 */
export async function startBalancer(instances: Instance[]): Promise<Balancer> {
  const routed: Routed[] = [];
  let turn = 0;
  const server = createServer((req, res) => {
    const target = instances[turn++ % instances.length].mcpUrl!;
    routed.push({ port: target.port, method: one(req.headers["mcp-method"]), name: one(req.headers["mcp-name"]) });
    const upstream = request(
      new URL(req.url ?? "/", target),
      { method: req.method, headers: { ...endToEnd(req.headers), connection: "close" }, agent: false },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, endToEnd(reply.headers));
        res.flushHeaders(); // an event stream's headers go out before its first event
        reply.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("The balancer has no TCP address");
  return {
    mcpUrl: new URL(`http://127.0.0.1:${address.port}/mcp`),
    routed,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
