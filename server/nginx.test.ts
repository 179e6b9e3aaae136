/**
 * The deployment example, deploy/nginx.conf, run by nginx in front of two small servers: requests
 * go to each in turn whatever session or cookie they carry, an event stream reaches the client
 * event by event even when the server does not ask for it and the host's nginx compresses
 * everything, a body as large as the server takes
 * passes, and it waits on a silent answer longer than a long poll or a stream's keep-alive takes.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import { NGINX_CONF, startNginx, type Nginx } from "../test-kit/servers/nginx.js";

/** A server that answers its own name, or an event stream held open until `release` is called. */
function upstream(name: string) {
  const held: ServerResponse[] = [];
  let bodyBytes = 0;
  const server = createServer((req, res) => {
    if (req.url === "/stream") {
      // no X-Accel-Buffering here: the configuration alone must not buffer
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(`data: first from ${name}\n\n`);
      held.push(res);
      return;
    }
    req.on("data", (chunk: Buffer) => (bodyBytes += chunk.length));
    req.on("end", () => res.end(name));
  });
  return {
    server,
    bodyBytes: () => bodyBytes,
    release() {
      for (const res of held.splice(0)) res.end(`data: last\n\n`);
    },
  };
}

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
  );

/** A duration of nginx's configuration (`30s`, `5m`, `1h`, or bare seconds) in ms. */
function durationMs(text: string): number {
  const [, amount, unit] = /^(\d+)(ms|s|m|h)?$/.exec(text)!;
  const ms = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit ?? "s"]!;
  return Number(amount) * ms;
}

describe("the deployment's nginx configuration", () => {
  const a = upstream("a");
  const b = upstream("b");
  let nginx: Nginx;
  beforeAll(async () => {
    const ports = await Promise.all([listen(a.server), listen(b.server)]);
    // a host's nginx.conf that compresses everything: a buffered stream would then wait for more
    nginx = await startNginx(ports, { http: "gzip on; gzip_types *; gzip_min_length 1;" });
  });
  afterAll(async () => {
    await nginx?.close();
    for (const { server } of [a, b]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("sends requests to each instance in turn, with no affinity to a session or a cookie", async () => {
    const sticky = { "mcp-session-id": "one-session", cookie: "route=a" };
    const answers: string[] = [];
    for (let i = 0; i < 6; i++)
      answers.push(await (await fetch(new URL("/mcp", nginx.origin), { headers: sticky })).text());
    expect(new Set(answers)).toEqual(new Set(["a", "b"]));
    expect(answers.every((name, i) => i === 0 || name !== answers[i - 1])).toBe(true);
  });

  it("passes an event stream on event by event, before the server ends it", async () => {
    const response = await fetch(new URL("/stream", nginx.origin));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    // the servers hold the stream open until released: a buffering proxy would pass nothing yet
    const first = await reader.read();
    expect(first.value).toMatch(/^data: first from [ab]\n\n$/);
    a.release();
    b.release();
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += chunk.value;
    expect(rest).toBe("data: last\n\n");
  });

  it("passes a body as large as the server takes (25 MB)", async () => {
    const before = a.bodyBytes() + b.bodyBytes();
    const body = Buffer.alloc(25 * 1024 * 1024 - 1024, "x");
    const response = await fetch(new URL("/mcp", nginx.origin), { method: "POST", body });
    expect(response.status).toBe(200);
    expect(a.bodyBytes() + b.bodyBytes() - before).toBe(body.length);
  });

  it("waits on an answer longer than a long poll (25 s) or a stream's keep-alive (15 s) takes, with room", () => {
    const conf = readFileSync(NGINX_CONF, "utf8");
    for (const directive of ["proxy_read_timeout", "proxy_send_timeout"]) {
      const value = new RegExp(`\\n\\s*${directive} (\\S+);`).exec(conf)?.[1];
      expect(value, directive).toBeDefined();
      expect(durationMs(value!)).toBeGreaterThanOrEqual(2 * 60_000);
    }
  });
});
