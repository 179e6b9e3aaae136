/**
 * Download-link tokens: the claims read back until the expiry (an injected clock), and nothing but
 * the key's own signature over unchanged claims is accepted.
 */
import { createFileLinks, LINK_TTL_MS } from "./file-links.js";

const KEY = new Uint8Array(32).fill(1);
const CLAIMS = { jobId: "job_abc", subject: "alice", format: "xlsx", part: "picks" } as const;
const tokenOf = (url: string) => url.slice(url.indexOf("/files/") + "/files/".length).split("/")[0];

describe("file links", () => {
  it("signs the claims and reads them back until the link expires", async () => {
    let now = 1_000_000;
    const links = createFileLinks({ secret: async () => KEY, now: () => now });
    const { url, expiresAt } = await links.issue(CLAIMS, "http://127.0.0.1:8787", "추석 picks.xlsx");
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:8787\/files\/[\w-]+\.[\w-]+\/%EC%B6%94%EC%84%9D%20picks\.xlsx$/);
    expect(expiresAt).toBe(now + LINK_TTL_MS);
    expect(await links.verify(tokenOf(url))).toEqual({ ok: true, claims: { ...CLAIMS, exp: expiresAt } });
    now = expiresAt - 1;
    expect((await links.verify(tokenOf(url))).ok).toBe(true);
    now = expiresAt;
    expect(await links.verify(tokenOf(url))).toEqual({ ok: false, why: "expired" });
  });

  it("refuses changed claims, another key's signature and what is no token at all", async () => {
    const links = createFileLinks({ secret: async () => KEY });
    const token = tokenOf((await links.issue(CLAIMS, "http://x", "a.xlsx")).url);
    const [body, signature] = token.split(".");
    const claims = JSON.parse(Buffer.from(body, "base64url").toString());
    const changed = Buffer.from(JSON.stringify({ ...claims, subject: "mallory" })).toString("base64url");
    const other = createFileLinks({ secret: async () => new Uint8Array(32).fill(2) });
    const otherToken = tokenOf((await other.issue(CLAIMS, "http://x", "a.xlsx")).url);
    for (const bad of [
      `${changed}.${signature}`,
      otherToken,
      `${body}.${signature.slice(0, -2)}`,
      `${body}.${signature}.x`,
      body,
      "",
      `${body}.${signature}${"A".repeat(3000)}`,
    ])
      expect(await links.verify(bad), bad.slice(0, 40)).toEqual({ ok: false, why: "invalid" });
    // a process's own key by default: another process's links are not its own
    expect((await createFileLinks().verify(token)).ok).toBe(false);
  });

  it("points at PUBLIC_URL when set, else at the request's origin, and at nothing without either", async () => {
    const links = createFileLinks({ publicUrl: "https://gifts.example.com/app/" });
    expect((await links.issue(CLAIMS, "http://10.0.0.5:8787", "a.xlsx")).url).toMatch(
      /^https:\/\/gifts\.example\.com\/app\/files\//,
    );
    await expect(createFileLinks().issue(CLAIMS, undefined, "a.xlsx")).rejects.toThrow(/set PUBLIC_URL/);
  });
});
