/**
 * The server as it is started (`server/main.ts`), in a process of its own, for tests that load it
 * from outside: its port once it listens, a /healthz probe on a connection of its own, and a stop
 * by its PID.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { get } from "node:http";

export type MainProcess = { port: number; stop(): Promise<void> };

/** Starts `server/main.ts` on a free port with `env` added; `openFiles` lowers its open-file limit first. */
export async function startMainProcess(env: Record<string, string>, openFiles?: number): Promise<MainProcess> {
  const node = `"${process.execPath}" --import tsx server/main.ts`;
  const child: ChildProcess = spawn(
    "sh",
    ["-c", openFiles ? `ulimit -n ${openFiles} && exec ${node}` : `exec ${node}`],
    {
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const found = /http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(out);
      if (found) resolve(Number(found[1]));
    });
    child.once("exit", (code) => reject(new Error(`the server exited (${code}) before listening`)));
  });
  return {
    port,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
  };
}

/**
 * /healthz on a connection of its own: its status, or what went wrong. Within 10 s: a loaded
 * machine may drop a probe's SYN while a flood fills the accept queue (retried after 1 s, 3 s).
 */
export const probeHealthz = (port: number) =>
  new Promise<string>((resolve) => {
    const req = get({ host: "127.0.0.1", port, path: "/healthz", agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      res.on("end", () => resolve(String(res.statusCode)));
    });
    req.on("timeout", () => req.destroy(new Error("no answer within 10 s")));
    req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
