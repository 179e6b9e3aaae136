/**
 * A server (server/main.ts) or worker (server/worker.ts) process for the observability tests, run
 * with tsx with JSON lines at debug: everything it logged (stdout and stderr, as records), its MCP
 * and metrics URLs once it said them, and its exit.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { logRecords, type LogRecord } from "./log-lines.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Starting takes tsx's compile of the server: on a busy machine, tens of seconds. */
const START_MS = 120_000;

export type LoggedProcess = {
  pid: number;
  mcpUrl?: URL;
  metricsUrl?: URL;
  /** Every line it logged so far. */
  records(): LogRecord[];
  /** Resolves with the exit code once it exits. */
  exited: Promise<number | null>;
  signal(name: NodeJS.Signals): void;
  /** SIGKILL unless it has exited. */
  kill(): Promise<void>;
};

/** Starts `entry` with `env` added; resolves once it has said where it serves (a worker: its first line). */
export async function startLogged(entry: "main" | "worker", env: Record<string, string>): Promise<LoggedProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", `server/${entry}.ts`], {
    cwd: ROOT,
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "debug", LOG_FORMAT: "json", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start server/${entry}.ts`);
  let text = "";
  child.stdout.on("data", (chunk) => (text += chunk));
  child.stderr.on("data", (chunk) => (text += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = (pattern: RegExp) => {
    const found = logRecords(text).find((r) => pattern.test(r.msg ?? ""));
    return found ? new URL(pattern.exec(found.msg ?? "")![1]) : undefined;
  };
  const wantsMetrics = env.METRICS_PORT !== undefined;
  const ready = () =>
    (entry === "worker" ? logRecords(text).length > 0 : url(/MCP server: (\S+)/) !== undefined) &&
    (!wantsMetrics || url(/Metrics: (\S+)/) !== undefined);
  const started = Date.now();
  while (!ready()) {
    if (child.exitCode !== null) throw new Error(`server/${entry}.ts exited before it was up:\n${text}`);
    if (Date.now() - started > START_MS) throw new Error(`server/${entry}.ts did not start:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    pid,
    mcpUrl: url(/MCP server: (\S+)/),
    metricsUrl: url(/Metrics: (\S+)/),
    records: () => logRecords(text),
    exited,
    signal: (name) => process.kill(pid, name),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await exited;
      }
    },
  };
}

/** The sum of every sample of `name` whose labels include `labels`. */
export function sampleSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const series = line.slice(0, line.lastIndexOf(" "));
    if (Object.entries(labels).every(([k, v]) => series.includes(`${k}="${v}"`))) {
      sum += Number(line.slice(line.lastIndexOf(" ") + 1));
    }
  }
  return sum;
}
