/**
 * Which browser origins may call /mcp (none sent, configured, or this server's own loopback page:
 * the harness), which `Host` names it answers to (against DNS rebinding), and where a staff file
 * handed over by URL may come from (FILE_DOWNLOAD_HOSTS).
 */

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A request header's value, absent or not. */
type Header = string | null | undefined;

export function isAllowedOrigin(origin: Header, host: Header, allowed: ReadonlySet<string>): boolean {
  if (!origin || allowed.has(origin)) return true;
  const url = URL.parse(origin);
  return url !== null && url.host === host && LOOPBACK.has(url.hostname);
}

/** A comma-separated list's entries, each trimmed and then `read`; empty ones dropped. */
const entries = (list: string | undefined, read = (entry: string) => entry): string[] =>
  (list ?? "").split(",").flatMap((entry) => read(entry.trim()) || []);

/** Parses `ALLOWED_ORIGINS` ("https://a.example, http://localhost:5173") into origins. */
export const parseOrigins = (list: string | undefined): string[] => entries(list, (o) => o.replace(/\/+$/, ""));

/** The host name of a `Host` header or an ALLOWED_HOSTS entry, port dropped, lower case; "" if none. */
const hostName = (host: string): string => URL.parse(`http://${host.trim()}`)?.hostname ?? "";

/** True for a loopback `Host` or one of `allowed` (ALLOWED_HOSTS and PUBLIC_URL's); `"any"`: no check. */
export function isAllowedHost(host: Header, allowed: ReadonlySet<string> | "any"): boolean {
  if (allowed === "any") return true;
  const name = hostName(host ?? "");
  return LOOPBACK.has(name) || allowed.has(name);
}

/** Parses `ALLOWED_HOSTS` ("gifts.example.com, tunnel.example:8443") into host names. */
export const parseHosts = (list: string | undefined): string[] => entries(list, hostName);

/** True for the loopback names this server may be bound to (HOST). */
export const isLoopback = (host: string): boolean => LOOPBACK.has(hostName(host)) || host === "::1";

const HOST_NAME = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/;

/** One FILE_DOWNLOAD_HOSTS entry: a host name as given (its https port), or an origin as URL spells it. */
function parseEntry(entry: string): string | undefined {
  if (!entry.includes("://")) return HOST_NAME.test(entry.toLowerCase()) ? entry.toLowerCase() : undefined;
  const url = URL.parse(entry);
  if (url === null || url.username || url.password || url.pathname !== "/" || url.search || url.hash) return undefined;
  // plain http only to this machine: anything else would cross the network unencrypted
  if (url.protocol === "https:" || (url.protocol === "http:" && isLoopback(url.hostname))) return url.origin;
  return undefined;
}

/** Parses FILE_DOWNLOAD_HOSTS ("files.example.com, *.cdn.example.com, https://f.example.com:8443"); undefined if an entry is bad. */
export function parseDownloadHosts(list: string): string[] | undefined {
  const parsed = entries(list).map(parseEntry);
  return parsed.every((e) => e !== undefined) ? parsed : undefined;
}
