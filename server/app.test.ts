import { mkdtempSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { TOOL } from "../shared/tools.js";
import { createApp } from "./app.js";
import { matchGifts } from "./gifts/matcher.js";
import { createJobService } from "./jobs/job-service.js";
import { createMemoryStore } from "./jobs/stores/memory.js";
import { postRaw, startTestServer, type TestServer } from "../test-kit/servers/test-server.js";

const list = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });

/** JSON as Python's json.dumps writes it by default: every character past ASCII as \uXXXX. */
const asciiJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

describe("the HTTP app", () => {
  let server: TestServer;
  let harnessDir: string;

  beforeAll(async () => {
    harnessDir = mkdtempSync(join(tmpdir(), "harness-"));
    writeFileSync(join(harnessDir, "index.html"), "<!doctype html><title>harness</title>");
    server = await startTestServer({
      allowedOrigins: ["https://harness.example"],
      staticDir: relative(process.cwd(), harnessDir),
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it("answers /healthz with a small JSON status", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok", store: "ok", sessions: expect.any(Number) });
  });

  it("serves the static files it was given, the harness at /", async () => {
    const response = await fetch(`${server.url}/index.html`);
    expect(await response.text()).toContain("<title>harness</title>");
    expect(await (await fetch(`${server.url}/`)).text()).toContain("<title>harness</title>");
  });

  it("refuses a browser origin it does not know with 403, before any MCP work", async () => {
    const response = await postRaw(server.mcpUrl, list, { origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      jsonrpc: "2.0",
      error: { message: expect.stringContaining("https://evil.example") },
    });
  });

  it("lets through clients without an Origin, configured origins and its own loopback origin", async () => {
    const cases: Record<string, string>[] = [{}, { origin: "https://harness.example" }, { origin: server.url }];
    for (const headers of cases) {
      const response = await postRaw(server.mcpUrl, list, headers);
      expect(response.status, JSON.stringify(headers)).toBe(200);
    }
  });

  it("answers CORS preflights for allowed origins only, exposing the session header", async () => {
    const preflight = (origin: string) =>
      fetch(server.mcpUrl, {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type,mcp-session-id",
        },
      });
    const allowed = await preflight("https://harness.example");
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://harness.example");
    expect(allowed.headers.get("access-control-allow-headers")).toContain("mcp-session-id");
    const refused = await preflight("https://evil.example");
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    const post = await postRaw(server.mcpUrl, list, { origin: "https://harness.example" });
    expect(post.headers.get("access-control-expose-headers")).toContain("mcp-session-id");
  });

  it("accepts a 5 MB CSV in one tools/call", async () => {
    const row = "Someone With A Fairly Long Name,interests go here;and here;and there\n";
    const csv = `name,department\n${row.repeat(Math.ceil((5 * 1024 * 1024) / row.length))}`;
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: TOOL.startBulk, arguments: { csv, occasion: "holiday", budgetPerPerson: 30 } },
    });
    expect(body.length).toBeGreaterThan(5 * 1024 * 1024);
    const response = await postRaw(server.mcpUrl, body);
    expect(response.status).toBe(200);
    const reply = await response.json();
    // The header lacks an interests column: the job service says so, which proves the body got through.
    expect(reply.result).toMatchObject({ isError: true, structuredContent: { error: { code: "invalid_csv" } } });
  });

  it("lets a CSV over the job limit through to the job service, which says how to fix it", async () => {
    const row = "Someone With A Fairly Long Name,Sales,interests go here;and here;and there\n";
    const csv = `name,department,interests\n${row.repeat(Math.ceil((8.5 * 1024 * 1024) / row.length))}`;
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: TOOL.startBulk, arguments: { csv, occasion: "holiday", budgetPerPerson: 30 } },
    });
    const response = await postRaw(server.mcpUrl, body);
    expect(response.status).toBe(200);
    const reply = await response.json();
    expect(reply.result).toMatchObject({ isError: true, structuredContent: { error: { code: "input_too_large" } } });
  });

  it("takes the largest CSV however a client escapes it: Korean as \\uXXXX and doubled quotes, over 14 MB of JSON", async () => {
    const row = (i: number) => `"김민준 ""준"" ${i}","개발팀, 서울","커피;등산"\n`;
    const rows: string[] = ["name,department,interests\n"];
    let bytes = Buffer.byteLength(rows[0]);
    for (let i = 0; bytes + Buffer.byteLength(row(i)) <= 8 * 1024 * 1024; i++) {
      rows.push(row(i));
      bytes += Buffer.byteLength(row(i));
    }
    const csv = rows.join("");
    const body = asciiJson({
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { name: TOOL.startBulk, arguments: { csv, occasion: "holiday", budgetPerPerson: 30 } },
    });
    console.log(
      `an ${(bytes / 1024 / 1024).toFixed(2)} MB CSV of ${rows.length - 1} rows is ${(body.length / 1024 / 1024).toFixed(1)} MB as ASCII-escaped JSON`,
    );
    expect(body.length).toBeGreaterThan(14 * 1024 * 1024);
    const response = await postRaw(server.mcpUrl, body);
    expect(response.status).toBe(200);
    const reply = await response.json();
    expect(reply.result).toMatchObject({ structuredContent: { jobId: expect.any(String), status: "pending" } });
    await postRaw(
      server.mcpUrl,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 6,
        method: "tools/call",
        params: { name: TOOL.cancelJob, arguments: { jobId: reply.result.structuredContent.jobId } },
      }),
    );
  });

  it("refuses other methods on /mcp with 405", async () => {
    const response = await fetch(server.mcpUrl, { method: "PUT", body: list });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST, DELETE");
  });

  it("answers only to loopback host names: a DNS-rebinding Host gets 403 with a sentence, on /mcp and the harness", async () => {
    const mcp = await rawRequest(
      server.url,
      "/mcp",
      { host: "evil.example:80", "content-type": "application/json" },
      list,
    );
    expect(mcp.status).toBe(403);
    expect(JSON.parse(mcp.body)).toMatchObject({
      jsonrpc: "2.0",
      error: { message: expect.stringMatching(/ALLOWED_HOSTS/) },
    });
    const page = await rawRequest(server.url, "/index.html", { host: "evil.example" });
    expect(page.status).toBe(403);
    expect(page.body).not.toContain("harness");
    for (const host of [`localhost:${new URL(server.url).port}`, new URL(server.url).host]) {
      expect((await rawRequest(server.url, "/index.html", { host })).status, host).toBe(200);
    }
  });

  it("serves the harness with security headers, to GET and HEAD only", async () => {
    const page = await fetch(`${server.url}/index.html`);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect((await fetch(`${server.url}/`, { method: "HEAD" })).status).toBe(200);
    for (const method of ["POST", "PUT", "DELETE"]) {
      const response = await fetch(`${server.url}/`, { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD");
      expect(await response.text()).not.toContain("harness");
    }
  });
});

describe("the HTTP app without the harness (production)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("answers / with a short page naming the server, its version and its MCP endpoint, and nothing else", async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    const html = await page.text();
    expect(html).toContain("<title>GiftGenius</title>");
    expect(html).toContain("GiftGenius 0.1.0");
    expect(html).toContain("<code>/mcp</code>");
    expect(html).toContain("README");
    expect(html).not.toMatch(/harness|sqlite|redis|node|127\.0\.0\.1/i);
    expect(html.length).toBeLessThan(2_000);
    expect((await fetch(`${server.url}/`, { method: "HEAD" })).status).toBe(200);
  });

  it("serves no other page", async () => {
    for (const path of ["/index.html", "/assets/index.js"]) {
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(404);
    }
  });
});

/** A request with a Host header of the test's choosing, which fetch will not send. */
function rawRequest(
  base: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: body ? "POST" : "GET", headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("what no handler answers", () => {
  it("is still JSON: a JSON-RPC internal error on /mcp, reported to onError without details to the caller", async () => {
    const reported: unknown[] = [];
    const jobs = createJobService({ store: createMemoryStore(), match: matchGifts });
    const { app, close } = createApp({ jobs, onError: (e) => reported.push(e) });
    // a body that breaks off while it is read, as a dropped upload does
    const broken = new ReadableStream({
      pull(controller) {
        controller.error(new Error("the connection was reset"));
      },
    });
    const response = await app.request("/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: broken,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    const body = (await response.json()) as { error: { code: number; message: string } };
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32603 } });
    expect(body.error.message).not.toMatch(/reset/);
    expect(reported).toEqual([new Error("the connection was reset")]);
    await close();
    await jobs.close();
  });
});

describe("the body limit", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ maxBodyBytes: 1024 });
  });
  afterAll(async () => {
    await server.close();
  });

  const tooBig = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: TOOL.suggestGifts, arguments: { occasion: "x".repeat(2000), budget: 10 } },
  });

  it("answers a body over the limit with 413 and a JSON-RPC error", async () => {
    const response = await postRaw(server.mcpUrl, tooBig);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: expect.stringContaining("1024 bytes") },
    });
  });

  it("also catches a chunked body that declares no length", async () => {
    const bytes = new TextEncoder().encode(tooBig);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 256) controller.enqueue(bytes.slice(i, i + 256));
        controller.close();
      },
    });
    // Node's fetch needs `duplex` to stream a request body; the DOM typings lack it.
    const init: RequestInit & { duplex: "half" } = {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body,
      duplex: "half",
    };
    const response = await fetch(server.mcpUrl, init);
    expect(response.status).toBe(413);
    const small = await postRaw(server.mcpUrl, list);
    expect(small.status).toBe(200);
  });
});
