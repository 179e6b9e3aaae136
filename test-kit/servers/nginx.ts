/**
 * nginx in front of HTTP servers, for tests: deploy/nginx.conf as it ships, with its instances'
 * addresses and its listen port changed, run in the foreground as the current user from a temporary
 * directory (its pid file, logs and temporary files there, nothing under /var or /run), ended by
 * its PID. Its access log tells which server each request went to and what its MCP headers named.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./redis-server.js";

/** The nginx binary (Debian's package); NGINX names another. */
const NGINX = process.env.NGINX ?? "/usr/sbin/nginx";
/** The deployment example, which these tests run as it is. */
export const NGINX_CONF = fileURLToPath(new URL("../../deploy/nginx.conf", import.meta.url));

/** One request nginx passed on: to which port, and the `Mcp-Method`, `Mcp-Name` and `Mcp-Session-Id` it carried. */
export type Routed = { port: string; method?: string; name?: string; session?: string };

export type Nginx = {
  pid: number;
  /** Where nginx listens: `http://127.0.0.1:<port>`. */
  origin: URL;
  /** Every request it has passed on and answered so far, in the order it answered them. */
  routed: () => Routed[];
  /** SIGTERM (nginx's fast shutdown), then the temporary directory goes. */
  close: () => Promise<void>;
};

/**
 * The deployment file with its instances' addresses (in the order they first appear) replaced by
 * `upstreamPorts` on 127.0.0.1, in every upstream, and its `listen` by 127.0.0.1:`listenPort`;
 * throws when the file no longer names as many instances, or no `listen`.
 */
function localSite(conf: string, { listenPort, upstreamPorts }: { listenPort: number; upstreamPorts: number[] }) {
  const addresses = [...new Set([...conf.matchAll(/\n\s*server (\S+?)( backup)?;/g)].map((m) => m[1]))];
  const listen = /\n(\s*)listen [^;]+;/;
  if (addresses.length !== upstreamPorts.length || !listen.test(conf))
    throw new Error(`${NGINX_CONF}: not ${upstreamPorts.length} instances and a listen to replace`);
  const port = (address: string) => upstreamPorts[addresses.indexOf(address)];
  return conf
    .replace(
      /(\n\s*server )(\S+?)(( backup)?;)/g,
      (_, head: string, address: string, tail: string) => `${head}127.0.0.1:${port(address)}${tail}`,
    )
    .replace(listen, `\n$1listen 127.0.0.1:${listenPort};`);
}

/** The main file around the site: foreground, one worker, everything nginx writes in `dir`, and `http` added. */
function mainConf(dir: string, http: string): string {
  // as root, nginx's workers would run as nobody, who may not write in `dir`
  const user = process.getuid?.() === 0 ? `user ${userInfo().username};` : "";
  return `daemon off;
worker_processes 1;
${user}
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  log_format routed '$upstream_addr\\t$http_mcp_method\\t$http_mcp_name\\t$http_mcp_session_id';
  access_log ${dir}/access.log routed;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  ${http}
  include ${dir}/site.conf;
}
`;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => resolve(true)).once("error", () => resolve(false));
    socket.once("close", () => socket.destroy());
    socket.once("connect", () => socket.end());
  });

const field = (text: string | undefined) => (text === undefined || text === "" || text === "-" ? undefined : text);

/**
 * Starts nginx with deploy/nginx.conf in front of `upstreamPorts` on 127.0.0.1, with `http`
 * directives added to the main file's http block as a host's own nginx.conf may; resolves once it
 * accepts connections.
 */
export async function startNginx(upstreamPorts: number[], { http = "" }: { http?: string } = {}): Promise<Nginx> {
  const dir = await mkdtemp(join(tmpdir(), "giftgenius-nginx-"));
  const listenPort = await freePort();
  await writeFile(join(dir, "site.conf"), localSite(await readFile(NGINX_CONF, "utf8"), { listenPort, upstreamPorts }));
  await writeFile(join(dir, "nginx.conf"), mainConf(dir, http));
  const child = spawn(NGINX, ["-p", dir, "-e", `${dir}/error.log`, "-c", join(dir, "nginx.conf")], { stdio: "ignore" });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${NGINX}`);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const errors = () => readFile(join(dir, "error.log"), "utf8").catch(() => "");
  while (!(await accepts(listenPort))) {
    if (gone()) throw new Error(`nginx exited before it listened:\n${await errors()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    pid,
    origin: new URL(`http://127.0.0.1:${listenPort}`),
    routed: () => {
      const log = readFileSync(join(dir, "access.log"), "utf8");
      return log
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => {
          const [upstream, method, name, session] = line.split("\t");
          // after a failed try nginx names every server it tried: the last one answered
          const port = upstream.split(",").at(-1)!.trim().split(":").at(-1)!;
          return { port, method: field(method), name: field(name), session: field(session) };
        });
    },
    close: async () => {
      if (!gone()) {
        process.kill(pid, "SIGTERM");
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
