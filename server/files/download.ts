/**
 * Downloads a file a host handed a tool by URL (ChatGPT's `openai/fileParams`) from allowed hosts
 * only, redirects followed by hand within the same origin, under a deadline and a size cap. A URL
 * that breaks a rule is refused before any request, so a caller cannot aim the server elsewhere.
 */
import { FILE_LIMITS } from "../../shared/files.js";
import { megabytes } from "../limits.js";
import { fail, ok, retryable, type Outcome } from "../outcomes.js";
import { downloadFailed, echo, type Notice } from "./file-words.js";

export type DownloadOptions = {
  /**
   * Host names ("files.example.com", "*.example.com" for its subdomains), over https on port 443 only,
   * or exact origins ("https://files.example.com:8443", "http://127.0.0.1:8787").
   */
  hosts: readonly string[];
  /** Exact origins allowed besides `hosts`, http too (the dev stand-in file service's). */
  extraOrigins?: () => ReadonlySet<string>;
  /** FILE_LIMITS.maxFileBytes by default. */
  maxBytes?: number;
  /** The whole download, redirects and body included (30 s by default). */
  timeoutMs?: number;
  /** Hears why a download failed in flight, for the operator's log. */
  onNotice?: Notice;
};

/** Downloads `url`; `signal` aborts it (the tool call was canceled). */
export type Download = (url: string, signal?: AbortSignal) => Promise<Outcome<{ bytes: Buffer; contentType?: string }>>;

const MAX_REDIRECTS = 3;
const ASK_FOR_PICKER =
  "Ask the person to choose the file in the widget's file picker instead (call start_bulk_gift_analysis without a staff list).";

const matches = (hostname: string, pattern: string) =>
  pattern.startsWith("*.") ? hostname.endsWith(pattern.slice(1)) : hostname === pattern;

/** Whether `url` is a name's https port, a named origin, or an extra one. */
function allowed(url: URL, options: DownloadOptions): boolean {
  if (options.extraOrigins?.().has(url.origin)) return true;
  return options.hosts.some((entry) =>
    entry.includes("://")
      ? url.origin === entry
      : url.protocol === "https:" && url.port === "" && matches(url.hostname, entry),
  );
}

/** Why `url` may not be fetched, or undefined when it may. */
function refusal(url: URL, options: DownloadOptions): string | undefined {
  if (url.username || url.password)
    return "The file's download URL carries credentials, which this server never sends.";
  if (allowed(url, options)) return undefined;
  const extra = options.extraOrigins !== undefined;
  if (options.hosts.length === 0 && !extra)
    return "This server is not set up to download files from chat hosts (FILE_DOWNLOAD_HOSTS is empty).";
  const httpAllowed = extra || options.hosts.some((entry) => entry.startsWith("http:"));
  if (url.protocol !== "https:" && !(url.protocol === "http:" && httpAllowed))
    return `The file's download URL uses ${echo(url.protocol.replace(/:$/, ""), 20)}; this server downloads files over https only.`;
  return `The file's download URL is on ${echo(url.hostname)}, which is not a host this server downloads files from (a named host over https on its usual port, or an origin the configuration names exactly).`;
}

/** Where a redirect from `url` to `location` leads, or why it is not followed. */
function redirectTarget(url: URL, location: string | null, hops: number): URL | string {
  const next = location === null ? null : URL.parse(location, url.href);
  if (next === null || hops >= MAX_REDIRECTS) return "The file's download URL redirects too often, or nowhere.";
  if (next.username || next.password)
    return "The file's download URL redirects to an address with credentials, which this server never sends.";
  if (next.origin !== url.origin) {
    return `The file's download URL redirects to another host (${echo(next.hostname)}); this server follows redirects only within the same host.`;
  }
  return next;
}

export function createDownload(options: DownloadOptions): Download {
  const maxBytes = options.maxBytes ?? FILE_LIMITS.maxFileBytes;
  const timeoutMs = options.timeoutMs ?? 30_000;

  return async (href, signal) => {
    let url = URL.parse(href);
    if (url === null) return fail("invalid_arguments", "The file's download_url is not a URL.", ASK_FOR_PICKER);
    const refused = refusal(url, options);
    if (refused) return fail("invalid_arguments", refused, ASK_FOR_PICKER);
    const deadline = AbortSignal.timeout(timeoutMs);
    const aborted = signal ? AbortSignal.any([signal, deadline]) : deadline;
    try {
      for (let hops = 0; ; hops++) {
        const response = await fetch(url, { redirect: "manual", signal: aborted, headers: { accept: "*/*" } });
        const declared = Number(response.headers.get("content-length") ?? NaN);
        if (!response.ok || declared > maxBytes) await response.body?.cancel(); // a body not read frees its connection
        if (response.status >= 300 && response.status < 400) {
          const next = redirectTarget(url, response.headers.get("location"), hops);
          if (typeof next === "string") return fail("invalid_arguments", next, ASK_FOR_PICKER);
          url = next;
          continue;
        }
        if (!response.ok) {
          return fail(
            "invalid_arguments",
            `The file could not be downloaded: its host answered ${response.status}${[403, 404, 410].includes(response.status) ? " (the link may have expired)" : ""}.`,
            "Ask the person to attach the file again, or to choose it in the widget's file picker.",
          );
        }
        const bytes = declared > maxBytes ? undefined : await readCapped(response, maxBytes);
        if (bytes === undefined) {
          return fail(
            "input_too_large",
            `The file is larger than ${megabytes(maxBytes)}, the largest staff file this server takes.`,
            "Ask the person for a smaller file: split the staff list, or save it as .csv, which is smaller than .xlsx.",
          );
        }
        return ok({ bytes, contentType: response.headers.get("content-type") ?? undefined });
      }
    } catch (error) {
      if (deadline.aborted) {
        return retryable(
          "internal",
          `The file's host did not deliver it within ${Math.round(timeoutMs / 1000)} seconds.`,
          "Try again in a moment, or ask the person to choose the file in the widget's file picker.",
        );
      }
      if (signal?.aborted) return fail("internal", "The download was canceled.");
      return downloadFailed(url, error, options.onNotice);
    }
  };
}

/** A body (a response's or a request's), or undefined as soon as it passes `maxBytes` (the rest is never read). */
export async function readCapped(response: { body: AsyncIterable<Uint8Array> | null }, maxBytes: number) {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const value of response.body ?? []) {
    total += value.length;
    if (total > maxBytes) return undefined; // leaving the loop cancels the rest of the body
    parts.push(value);
  }
  return Buffer.concat(parts, total);
}
