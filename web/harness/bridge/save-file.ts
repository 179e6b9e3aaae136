/**
 * The harness saving a file the widget hands its host, as a browser host would: an MCP Apps
 * `ui/download-file` item (its bytes, or a link to fetch) or a ChatGPT `openExternal` link. Bytes
 * become a Blob saved through an `<a download>`; a link on the harness's own origin is downloaded
 * the same way (the server's Content-Disposition names it); any other http(s) link opens in a tab.
 */
import { isRecord } from "../../json-values.js";

/** What the harness did, for its log. */
export type Saved =
  | { saved: string; mimeType: string; bytes: number }
  | { downloaded: string }
  | { opened: string }
  | { refused: string };

const EXTENSIONS: Record<string, string> = {
  "text/csv": "csv",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
};

/** A name for a file from its URI: the last path segment when it has an extension, else by type. */
export function fileNameOf(uri: string, mimeType = ""): string {
  let last = "";
  try {
    last = decodeURIComponent(new URL(uri).pathname.split("/").pop() ?? "");
  } catch {
    // not a URL: named by its type below
  }
  return /\.\w+$/.test(last) ? last : `giftgenius-export.${EXTENSIONS[mimeType.split(";")[0]] ?? "bin"}`;
}

function click(win: Window, href: string, name: string): void {
  const a = win.document.createElement("a");
  a.href = href;
  a.download = name;
  win.document.body.append(a);
  a.click();
  a.remove();
}

/** Downloads a same-origin link, opens any other http(s) one in a new tab, refuses the rest. */
export function openLink(win: Window, href: string): Saved {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return { refused: href };
  }
  if (url.origin === win.location.origin) {
    click(win, url.href, "");
    return { downloaded: url.href };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { refused: href };
  win.open(url.href, "_blank", "noopener,noreferrer");
  return { opened: url.href };
}

/** Saves one `ui/download-file` item: an embedded resource's bytes (blob or text), or a resource link. */
export function saveDownloadItem(win: Window, item: unknown): Saved {
  if (isRecord(item) && item.type === "resource_link" && typeof item.uri === "string") return openLink(win, item.uri);
  const resource = isRecord(item) && item.type === "resource" && isRecord(item.resource) ? item.resource : null;
  if (resource === null || typeof resource.uri !== "string") return { refused: JSON.stringify(item).slice(0, 200) };
  const mimeType = typeof resource.mimeType === "string" ? resource.mimeType : "application/octet-stream";
  const content =
    typeof resource.blob === "string"
      ? Uint8Array.from(atob(resource.blob), (c) => c.charCodeAt(0))
      : typeof resource.text === "string"
        ? resource.text
        : "";
  const blob = new Blob([content], { type: mimeType });
  const name = fileNameOf(resource.uri, mimeType);
  const href = URL.createObjectURL(blob);
  click(win, href, name);
  // the download has taken its copy once the click is handled
  win.setTimeout(() => URL.revokeObjectURL(href), 60_000);
  return { saved: name, mimeType, bytes: blob.size };
}
