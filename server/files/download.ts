/**
 * Downloads a file a host handed a tool by URL (ChatGPT's `openai/fileParams`), and nothing else:
 * only over https from the host names the configuration allows (FILE_DOWNLOAD_HOSTS; in
 * development also this server's own origin, over http), redirects followed by hand and only
 * within the same origin, within a deadline and a size cap. A URL that breaks a rule is refused
 * before any request is made, so a caller cannot point the server at an address of its choosing.
 * Every failure is a sentence the model can act on.
 */
import { FILE_LIMITS } from "../../shared/files.js";
import { megabytes } from "../jobs/limits.js";
import { fail, ok, type Outcome } from "../jobs/outcomes.js";
import { isLoopback } from "../mcp/http/origin.js";

export type DownloadOptions = {
  /** Host names to download from; "*.example.com" allows every subdomain of example.com. */
  hosts: readonly string[];
  /** Development: http is allowed from loopback hosts, and `ownOrigins` are allowed hosts too. */
  development?: boolean;
  /** This server's own origins (the harness's file service), allowed in development. */
  ownOrigins?: () => ReadonlySet<string>;
  /** Largest file taken (FILE_LIMITS.maxFileBytes by default). */
  maxBytes?: number;
  /** The whole download, redirects and body included, in ms (30 s by default). */
  timeoutMs?: number;
};

type Downloaded = { bytes: Buffer; contentType?: string };
/** Downloads `url`; `signal` aborts it (the tool call was canceled). */
export type Download = (url: string, signal?: AbortSignal) => Promise<Outcome<Downloaded>>;

const MAX_REDIRECTS = 3;
const ASK_FOR_PICKER =
  "Ask the person to choose the file in the widget's file picker instead (call start_bulk_gift_analysis without a staff list).";

/** Parses FILE_DOWNLOAD_HOSTS ("files.example.com, *.cdn.example.com"); undefined when an entry is not a host name. */
export function parseDownloadHosts(list: string): string[] | undefined {
  const hosts = list
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return hosts.every((host) => /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(host)) ? hosts : undefined;
}

const matches = (hostname: string, pattern: string) =>
  pattern.startsWith("*.") ? hostname.endsWith(pattern.slice(1)) : hostname === pattern;

/** Why `url` may not be fetched, or undefined when it may. Decided before any request. */
function refusal(url: URL, options: DownloadOptions): string | undefined {
  if (url.username || url.password)
    return "The file's download URL carries credentials, which this server never sends.";
  const development = options.development === true;
  if (url.protocol !== "https:" && !(url.protocol === "http:" && development && isLoopback(url.hostname))) {
    return `The file's download URL uses ${url.protocol.replace(":", "")}; this server downloads files over https only.`;
  }
  if (development && options.ownOrigins?.().has(url.origin)) return undefined;
  if (!options.hosts.some((pattern) => matches(url.hostname, pattern))) {
    return options.hosts.length === 0
      ? "This server is not set up to download files from chat hosts (FILE_DOWNLOAD_HOSTS is empty)."
      : `The file's download URL is on ${url.hostname}, which is not a host this server downloads files from.`;
  }
  return undefined;
}

/** A downloader with `options`. */
export function createDownload(options: DownloadOptions): Download {
  const maxBytes = options.maxBytes ?? FILE_LIMITS.maxFileBytes;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const tooLarge = () =>
    fail<Downloaded>(
      "input_too_large",
      `The file is larger than ${megabytes(maxBytes)}, the largest staff file this server takes.`,
      "Ask the person for a smaller file: split the staff list, or save it as .csv, which is smaller than .xlsx.",
    );

  return async (href, signal) => {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      return fail("invalid_arguments", "The file's download_url is not a URL.", ASK_FOR_PICKER);
    }
    const refused = refusal(url, options);
    if (refused) return fail("invalid_arguments", refused, ASK_FOR_PICKER);
    const deadline = AbortSignal.timeout(timeoutMs);
    const aborted = signal ? AbortSignal.any([signal, deadline]) : deadline;
    try {
      for (let hops = 0; ; hops++) {
        const response = await fetch(url, { redirect: "manual", signal: aborted, headers: { accept: "*/*" } });
        if (response.status >= 300 && response.status < 400) {
          await response.body?.cancel();
          const location = response.headers.get("location");
          const next = location === null ? undefined : URL.parse(location, url.href);
          if (next === undefined || next === null || next.origin !== url.origin || hops >= MAX_REDIRECTS) {
            return fail(
              "invalid_arguments",
              `The file's download URL redirects ${next && next.origin !== url.origin ? `to another host (${next.hostname})` : "too often, or nowhere"}; this server follows redirects only within the same host.`,
              ASK_FOR_PICKER,
            );
          }
          url = next;
          continue;
        }
        if (!response.ok) {
          await response.body?.cancel();
          return fail(
            "invalid_arguments",
            `The file could not be downloaded: its host answered ${response.status}${response.status === 403 || response.status === 404 || response.status === 410 ? " (the link may have expired)" : ""}.`,
            "Ask the person to attach the file again, or to choose it in the widget's file picker.",
          );
        }
        const declared = Number(response.headers.get("content-length") ?? NaN);
        if (declared > maxBytes) {
          await response.body?.cancel();
          return tooLarge();
        }
        const bytes = await readCapped(response, maxBytes);
        if (bytes === undefined) return tooLarge();
        return ok({ bytes, contentType: response.headers.get("content-type") ?? undefined });
      }
    } catch (error) {
      if (deadline.aborted) {
        return {
          ok: false,
          error: {
            code: "internal",
            message: `The file's host did not deliver it within ${Math.round(timeoutMs / 1000)} seconds.`,
            hint: "Try again in a moment, or ask the person to choose the file in the widget's file picker.",
            retryable: true,
          },
        };
      }
      if (signal?.aborted) return fail("internal", "The download was canceled.");
      return {
        ok: false,
        error: {
          code: "internal",
          message: `The file's host could not be reached (${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}).`,
          hint: "Try again in a moment, or ask the person to choose the file in the widget's file picker.",
          retryable: true,
        },
      };
    }
  };
}

/** A body (a response's or a request's), or undefined as soon as it passes `maxBytes` (the rest is never read). */
export async function readCapped(response: Pick<Response, "body">, maxBytes: number): Promise<Buffer | undefined> {
  if (response.body === null) return Buffer.alloc(0);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(parts, total);
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    parts.push(value);
  }
}
