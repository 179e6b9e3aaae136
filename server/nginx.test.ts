/**
 * The deployment example, deploy/nginx.conf, run by nginx in front of two small servers: a request
 * naming a session goes to the instance its id's tag names (to the other when that one is dead),
 * any other request to each in turn whatever cookie or unknown tag it carries; an event stream
 * reaches the client event by event even when the server does not ask for it and the host's nginx
 * compresses everything, a body as large as the server takes passes, and it waits on a silent
 * answer longer than a long poll or a stream's keep-alive takes.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import { NGINX_CONF, startNginx, type Nginx } from "../test-kit/servers/nginx.js";
import { freePort } from "../test-kit/servers/redis-server.js";

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
  let ports: number[];
  /** What answered a GET /mcp with `headers`, through `via`. */
  const answer = async (headers: Record<string, string>, via = nginx) =>
    (await fetch(new URL("/mcp", via.origin), { headers })).text();
  const answers = async (count: number, headers: () => Record<string, string>, via = nginx) => {
    const names: string[] = [];
    for (let i = 0; i < count; i++) names.push(await answer(headers(), via));
    return names;
  };
  beforeAll(async () => {
    ports = await Promise.all([listen(a.server), listen(b.server)]);
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

  it("sends a session's requests to the instance its id's tag names, and the rest to each in turn", async () => {
    for (const tag of ["a", "b"])
      expect(await answers(4, () => ({ "mcp-session-id": `${tag}.${randomUUID()}` }))).toEqual([tag, tag, tag, tag]);
    // no session, a cookie, a tag no instance has, an address for a tag: each picks nothing
    const unrouted: Record<string, string>[] = [{}, { cookie: "route=a" }, { "mcp-session-id": `c.${randomUUID()}` }];
    for (const headers of unrouted) {
      const inTurn = await answers(4, () => headers);
      expect(
        inTurn.every((name, i) => i === 0 || name !== inTurn[i - 1]),
        JSON.stringify(headers),
      ).toBe(true);
    }
    const addressed = await answers(4, () => ({ "mcp-session-id": `127.0.0.1:${ports[0]}.${randomUUID()}` }));
    expect(new Set(addressed)).toEqual(new Set(["a", "b"]));
  });

  it("sends a dead instance's sessions to a live one, which answers for them", async () => {
    // nothing listens where instance a should be
    const alone = await startNginx([await freePort(), ports[1]]);
    try {
      expect(await answers(3, () => ({ "mcp-session-id": `a.${randomUUID()}` }), alone)).toEqual(["b", "b", "b"]);
    } finally {
      await alone.close();
    }
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
