/**
 * Which browser origins may call /mcp. Requests without an `Origin` (non-browser clients) pass;
 * configured origins pass; and a page served by this very server on a loopback host passes, which
 * is how the local harness calls it. A DNS-rebinding page has a foreign host, so it does not.
 */

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** True when a request with this `Origin` and `Host` may reach the MCP endpoint. */
export function isAllowedOrigin(
  origin: string | null | undefined,
  host: string | null | undefined,
  allowed: ReadonlySet<string>,
): boolean {
  if (!origin) return true;
  if (allowed.has(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return url.host === host && LOOPBACK.has(url.hostname);
}

/** Parses `ALLOWED_ORIGINS` ("https://a.example, http://localhost:5173") into origins. */
export function parseOrigins(list: string | undefined): string[] {
  return (list ?? "")
    .split(",")
    .map((s) => s.trim().replace(/\/+$/, ""))
    .filter(Boolean);
}
