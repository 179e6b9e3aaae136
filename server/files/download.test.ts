/**
 * The file downloader against real local HTTP servers: an allowed host's file comes down (through
 * a redirect within the host); a disallowed host, plain http to an origin not named, credentials in
 * the URL and a redirect to another host are refused without a request to where they point; a
 * body past the cap is cut off, not read to its end; a host that never answers times out.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { parseDownloadHosts } from "../origin.js";
import { createDownload, type DownloadOptions } from "./download.js";

type Local = { origin: string; port: number; requests: string[]; close(): Promise<void> };
const servers: Local[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server on 127.0.0.1 answering with `handle`, counting the paths requested. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse) => unknown): Promise<Local> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? "");
    void handle(req, res); // a failing handler rejects unhandled, which fails the test
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const local = {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  servers.push(local);
  return local;
}

/** Resolves when `res` can take more, or has closed. */
const drained = (res: ServerResponse) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off("drain", done).off("close", done);
      resolve();
    };
    res.on("drain", done).on("close", done);
  });

const STAFF = Buffer.from("name,department\nAda,R&D\n");
/** A downloader that allows exactly `local`'s origin (http on loopback, as development configures it). */
const from = (local: Pick<Local, "origin">, options: Partial<DownloadOptions> = {}) =>
  createDownload({ hosts: [local.origin], ...options });

describe("downloading a host's file", () => {
  it("takes the file from an allowed host, following a redirect within it", async () => {
    const local = await serve((req, res) => {
      if (req.url === "/file-1") res.writeHead(302, { location: "/blob/file-1?sig=x" }).end();
      else res.writeHead(200, { "content-type": "text/csv" }).end(STAFF);
    });
    const got = await from(local)(`${local.origin}/file-1`);
    expect(got.ok && got.value).toEqual({ bytes: STAFF, contentType: "text/csv" });
    expect(local.requests).toEqual(["/file-1", "/blob/file-1?sig=x"]);
  });

  it("allows the extra origins the app adds (its own, in development), once they are added", async () => {
    const local = await serve((_req, res) => res.end(STAFF));
    const extra = new Set<string>();
    const download = createDownload({ hosts: [], extraOrigins: () => extra });
    expect((await download(`${local.origin}/dev/files/1`)).ok).toBe(false);
    extra.add(local.origin);
    expect((await download(`${local.origin}/dev/files/1`)).ok).toBe(true);
    expect((await createDownload({ hosts: [] })(`${local.origin}/dev/files/1`)).ok).toBe(false);
    expect(local.requests).toHaveLength(1);
  });

  it("refuses a host, a scheme or credentials it does not allow, without any request", async () => {
    const local = await serve((_req, res) => res.end(STAFF));
    const refusals = [
      [
        from({ origin: "https://files.example.com" }),
        `https://127.0.0.1:${local.port}/f`,
        /on 127\.0\.0\.1, which is not a host/,
      ],
      [createDownload({ hosts: [] }), `${local.origin}/f`, /FILE_DOWNLOAD_HOSTS is empty/],
      [createDownload({ hosts: ["127.0.0.1"] }), `${local.origin}/f`, /over https only/],
      [from(local), `ftp://127.0.0.1:${local.port}/f`, /over https only/],
      [from(local), `http://user:pw@127.0.0.1:${local.port}/f`, /credentials/],
      [from(local), "not a url", /not a URL/],
    ] as const;
    for (const [download, url, sentence] of refusals) {
      const got = await download(url);
      expect(got.ok).toBe(false);
      if (!got.ok) {
        expect(got.error.message).toMatch(sentence);
        expect(got.error.hint).toMatch(/file picker/);
      }
    }
    expect(local.requests).toEqual([]);
  });

  it("matches a wildcard entry to subdomains only", async () => {
    const download = createDownload({ hosts: parseDownloadHosts(" *.Example.com ,files.test ")! });
    for (const url of ["https://example.com/f", "https://evil-example.com/f", "https://example.com.evil.test/f"]) {
      const got = await download(url);
      expect(got.ok || got.error.message).toMatch(/not a host this server downloads files from/);
    }
    expect(parseDownloadHosts("files.example.com, https://x.test/files")).toBeUndefined();
  });

  it("refuses a redirect to another host, and never asks that host", async () => {
    const elsewhere = await serve((_req, res) => res.end(STAFF));
    const local = await serve((_req, res) =>
      res.writeHead(307, { location: `http://localhost:${elsewhere.port}/f` }).end(),
    );
    const got = await createDownload({ hosts: [local.origin, elsewhere.origin.replace("127.0.0.1", "localhost")] })(
      `${local.origin}/f`,
    );
    expect(!got.ok && got.error.message).toMatch(/redirects to another host \(localhost\)/);
    expect(elsewhere.requests).toEqual([]);
  });

  it("stops reading a body at the size cap, and refuses a declared size past it at once", async () => {
    let written = 0;
    let finished = false;
    const streaming = await serve(async (_req, res) => {
      const block = Buffer.alloc(64 * 1024, 0x41);
      while (written < 64 * 1024 * 1024 && !res.destroyed) {
        written += block.length;
        if (!res.write(block)) await drained(res);
      }
      finished = !res.destroyed;
      res.end();
    });
    const got = await from(streaming, { maxBytes: 1024 * 1024 })(`${streaming.origin}/big`);
    expect(!got.ok && got.error).toMatchObject({
      code: "input_too_large",
      message: expect.stringMatching(/larger than 1 MB/),
    });
    await new Promise((resolve) => setTimeout(resolve, 50)); // lets the server see the connection go
    expect(finished).toBe(false);
    expect(written).toBeLessThan(64 * 1024 * 1024);

    const declared = await serve((_req, res) => res.writeHead(200, { "content-length": 2 * 1024 * 1024 }).write("x"));
    const refused = await from(declared, { maxBytes: 1024 * 1024 })(`${declared.origin}/big`);
    expect(!refused.ok && refused.error.code).toBe("input_too_large");
  });

  it("gives up on a host that never answers, as a failure worth retrying", async () => {
    const silent = await serve(() => {});
    const got = await from(silent, { timeoutMs: 200 })(`${silent.origin}/f`);
    expect(!got.ok && got.error).toMatchObject({
      code: "internal",
      retryable: true,
      message: expect.stringMatching(/did not deliver it within/),
    });
    expect(silent.requests).toEqual(["/f"]);
  });

  it("says when the link has expired", async () => {
    const local = await serve((_req, res) => res.writeHead(403).end("expired"));
    const got = await from(local)(`${local.origin}/f`);
    expect(!got.ok && got.error.message).toMatch(/answered 403 \(the link may have expired\)/);
  });
});

describe("exact download targets", () => {
  it("takes an allowed host name on its https port only, never on another port or over http", async () => {
    const local = await serve((_req, res) => res.end(STAFF));
    const byName = createDownload({ hosts: ["127.0.0.1"] });
    for (const url of [`https://127.0.0.1:${local.port}/f`, `http://127.0.0.1:${local.port}/f`]) {
      const got = await byName(url);
      expect(got.ok).toBe(false);
      expect(!got.ok && got.error.message).not.toContain(String(local.port));
    }
    const wildcard = createDownload({ hosts: ["*.example.test"] });
    const port = await wildcard("https://files.example.test:8443/f");
    expect(!port.ok && port.error.message).toMatch(/not a host this server downloads files from/);
    expect(local.requests).toEqual([]);
  });

  it("takes a configured origin exactly, port and scheme included", async () => {
    const local = await serve((_req, res) => res.end(STAFF));
    const other = await serve((_req, res) => res.end("the other service's secret"));
    const download = createDownload({ hosts: parseDownloadHosts(`https://files.example.test:8443, ${local.origin}`)! });
    expect((await download(`${local.origin}/f`)).ok).toBe(true);
    for (const url of [
      `${other.origin}/f`,
      `https://127.0.0.1:${local.port}/f`,
      "https://files.example.test/f",
      "http://files.example.test:8443/f",
    ]) {
      const got = await download(url);
      expect(!got.ok && got.error.message).toMatch(/not a host this server downloads files from|https only/);
    }
    expect(other.requests).toEqual([]);
    expect(local.requests).toEqual(["/f"]);
  });

  it("reads exact origins in FILE_DOWNLOAD_HOSTS, http only on loopback", () => {
    expect(parseDownloadHosts("https://Files.example.com:8443, http://127.0.0.1:8787, files.test")).toEqual([
      "https://files.example.com:8443",
      "http://127.0.0.1:8787",
      "files.test",
    ]);
    expect(parseDownloadHosts("https://files.example.com:443")).toEqual(["https://files.example.com"]);
    for (const bad of ["http://files.example.com", "https://x.test/path", "https://u:p@x.test", "ftp://x.test"]) {
      expect(parseDownloadHosts(bad)).toBeUndefined();
    }
  });
});

describe("download refusals are sentences for people", () => {
  /** A port nothing listens on (a server was there a moment ago). */
  async function closedPort(): Promise<number> {
    const gone = await serve(() => {});
    await gone.close();
    return gone.port;
  }
  const leaks = /ECONN|ssl|openssl|deps\/|\.c:\d|wrong version|127\.0\.0\.1:\d|secret|user:/i;

  it("says the same of a closed port and of an open one that does not speak TLS, and logs the detail", async () => {
    const plain = await serve((_req, res) => res.end(STAFF));
    const closed = await closedPort();
    const notices: { line: string; detail: Record<string, unknown> }[] = [];
    const messages: string[] = [];
    for (const port of [closed, plain.port]) {
      const origin = `https://127.0.0.1:${port}`;
      const got = await createDownload({ hosts: [origin], onNotice: (line, detail) => notices.push({ line, detail }) })(
        `${origin}/f?sig=abc`,
      );
      expect(!got.ok && got.error).toMatchObject({ code: "internal", retryable: true });
      if (!got.ok) messages.push(`${got.error.message} ${got.error.hint}`);
    }
    expect(messages[0]).toBe(messages[1]);
    expect(messages[0]).toMatch(/^The file could not be downloaded from 127\.0\.0\.1\. /);
    expect(messages[0]).not.toMatch(leaks);
    expect(messages[0]).not.toContain(String(closed));
    // the operator reads what happened, without the link's query
    expect(notices).toHaveLength(2);
    expect(JSON.stringify(notices[0])).toMatch(/ECONNREFUSED/);
    expect(JSON.stringify(notices)).not.toContain("sig=abc");
  });

  it("never repeats the credentials of a redirect's URL, within the host or to another", async () => {
    const notices: string[] = [];
    let target = "";
    const local = await serve((req, res) => {
      if (req.url === "/f") res.writeHead(302, { location: target }).end();
      else res.end(STAFF);
    });
    const download = createDownload({
      hosts: [local.origin, `http://localhost:${local.port}`],
      onNotice: (line, detail) => notices.push(line, JSON.stringify(detail)),
    });
    for (const to of [
      `http://user:hunter2@127.0.0.1:${local.port}/blob`,
      `http://user:hunter2@localhost:${local.port}/blob`,
    ]) {
      target = to;
      const got = await download(`${local.origin}/f`);
      expect(got.ok).toBe(false);
      if (!got.ok) expect(`${got.error.message} ${got.error.hint}`).not.toMatch(/hunter2|user:/);
    }
    expect(notices.join(" ")).not.toMatch(/hunter2/);
    expect(local.requests).toEqual(["/f", "/f"]);
  });

  it("cuts what it echoes of a very long URL, within the 2,000 characters docs/reliability.md promises", async () => {
    const longHost = Array.from({ length: 60 }, () => "a".repeat(60)).join(".");
    const download = createDownload({ hosts: ["files.example.test"] });
    for (const url of [`https://${longHost}/f`, `${"x".repeat(3000)}://files.example.test/f`]) {
      const got = await download(url);
      expect(got.ok).toBe(false);
      if (!got.ok) {
        expect(got.error.message.length + (got.error.hint ?? "").length).toBeLessThanOrEqual(2000);
        expect(got.error.message).not.toContain("a".repeat(200));
        expect(got.error.message).not.toContain("x".repeat(200));
      }
    }
  });
});
