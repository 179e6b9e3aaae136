/**
 * The file downloader against real local HTTP servers: an allowed host's file comes down (through
 * a redirect within the host); a disallowed host, plain http outside development, credentials in
 * the URL and a redirect to another host are refused without a request to where they point; a
 * body past the cap is cut off, not read to its end; a host that never answers times out.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createDownload, parseDownloadHosts, type DownloadOptions } from "./download.js";

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
const dev = (options: Partial<DownloadOptions> = {}) =>
  createDownload({ hosts: ["127.0.0.1"], development: true, ...options });

describe("downloading a host's file", () => {
  it("takes the file from an allowed host, following a redirect within it", async () => {
    const local = await serve((req, res) => {
      if (req.url === "/file-1") res.writeHead(302, { location: "/blob/file-1?sig=x" }).end();
      else res.writeHead(200, { "content-type": "text/csv" }).end(STAFF);
    });
    const got = await dev()(`${local.origin}/file-1`);
    expect(got.ok && got.value).toEqual({ bytes: STAFF, contentType: "text/csv" });
    expect(local.requests).toEqual(["/file-1", "/blob/file-1?sig=x"]);
  });

  it("allows this server's own origin in development, and only then", async () => {
    const local = await serve((_req, res) => res.end(STAFF));
    const own = () => new Set([local.origin]);
    expect((await dev({ hosts: [], ownOrigins: own })(`${local.origin}/dev/files/1`)).ok).toBe(true);
    const production = await createDownload({ hosts: [], ownOrigins: own })(`${local.origin}/dev/files/1`);
    expect(production.ok).toBe(false);
    expect(local.requests).toHaveLength(1);
  });

  it("refuses a host, a scheme or credentials it does not allow, without any request", async () => {
    const local = await serve((_req, res) => res.end(STAFF));
    const refusals = [
      [dev({ hosts: ["files.example.com"] }), `${local.origin}/f`, /on 127\.0\.0\.1, which is not a host/],
      [dev({ hosts: [] }), `${local.origin}/f`, /FILE_DOWNLOAD_HOSTS is empty/],
      [createDownload({ hosts: ["127.0.0.1"] }), `${local.origin}/f`, /over https only/],
      [dev(), `ftp://127.0.0.1:${local.port}/f`, /over https only/],
      [dev(), `http://user:pw@127.0.0.1:${local.port}/f`, /credentials/],
      [dev(), "not a url", /not a URL/],
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
    expect(parseDownloadHosts("files.example.com, https://x.test/")).toBeUndefined();
  });

  it("refuses a redirect to another host, and never asks that host", async () => {
    const elsewhere = await serve((_req, res) => res.end(STAFF));
    const local = await serve((_req, res) =>
      res.writeHead(307, { location: `http://localhost:${elsewhere.port}/f` }).end(),
    );
    const got = await dev({ hosts: ["127.0.0.1", "localhost"] })(`${local.origin}/f`);
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
    const got = await dev({ maxBytes: 1024 * 1024 })(`${streaming.origin}/big`);
    expect(!got.ok && got.error).toMatchObject({
      code: "input_too_large",
      message: expect.stringMatching(/larger than 1 MB/),
    });
    await new Promise((resolve) => setTimeout(resolve, 50)); // lets the server see the connection go
    expect(finished).toBe(false);
    expect(written).toBeLessThan(64 * 1024 * 1024);

    const declared = await serve((_req, res) => res.writeHead(200, { "content-length": 2 * 1024 * 1024 }).write("x"));
    const refused = await dev({ maxBytes: 1024 * 1024 })(`${declared.origin}/big`);
    expect(!refused.ok && refused.error.code).toBe("input_too_large");
  });

  it("gives up on a host that never answers, as a failure worth retrying", async () => {
    const silent = await serve(() => {});
    const got = await dev({ timeoutMs: 200 })(`${silent.origin}/f`);
    expect(!got.ok && got.error).toMatchObject({
      code: "internal",
      retryable: true,
      message: expect.stringMatching(/did not deliver it within/),
    });
    expect(silent.requests).toEqual(["/f"]);
  });

  it("says when the link has expired", async () => {
    const local = await serve((_req, res) => res.writeHead(403).end("expired"));
    const got = await dev()(`${local.origin}/f`);
    expect(!got.ok && got.error.message).toMatch(/answered 403 \(the link may have expired\)/);
  });
});
