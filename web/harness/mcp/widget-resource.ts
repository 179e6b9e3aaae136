/**
 * Finds and reads the widget the way a host does: the tool's `_meta["openai/outputTemplate"]`
 * (or MCP Apps' `_meta.ui.resourceUri`) names a `ui://` resource; without one, the first `ui://`
 * resource with a widget mime type is taken. `resources/read` then gives its HTML.
 */
import type { Client, Resource, Tool } from "@modelcontextprotocol/client";

const WIDGET_MIME_TYPES = ["text/html;profile=mcp-app", "text/html+skybridge"] as const;

export const isWidgetResource = (r: Pick<Resource, "uri" | "mimeType">): boolean =>
  r.uri.startsWith("ui://") && (WIDGET_MIME_TYPES as readonly string[]).includes(r.mimeType ?? "");

/** The widget URI for `toolName`'s results, or null when the server offers no widget. */
export function widgetUriFor(toolName: string, tools: readonly Tool[], resources: readonly Resource[]): string | null {
  const meta = tools.find((t) => t.name === toolName)?._meta ?? {};
  const template = meta["openai/outputTemplate"];
  if (typeof template === "string" && template.length > 0) return template;
  const ui = meta.ui;
  if (typeof ui === "object" && ui !== null && typeof (ui as { resourceUri?: unknown }).resourceUri === "string") {
    return (ui as { resourceUri: string }).resourceUri;
  }
  return resources.find(isWidgetResource)?.uri ?? null;
}

/** Every item of a paged list, following `nextCursor` through all pages. */
async function everyPage<P extends { nextCursor?: string }, T>(
  fetch: (params: { cursor: string } | undefined) => Promise<P>,
  items: (page: P) => T[],
): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetch(cursor ? { cursor } : undefined);
    all.push(...items(page));
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}

export const listAllTools = (client: Client): Promise<Tool[]> =>
  everyPage(
    (params) => client.listTools(params),
    (page) => page.tools,
  );

export const listAllResources = (client: Client): Promise<Resource[]> =>
  everyPage(
    (params) => client.listResources(params),
    (page) => page.resources,
  );

export type WidgetDocument = { uri: string; mimeType: string | null; html: string; meta: Record<string, unknown> };

/** Reads the widget resource and returns its HTML (text, or base64 blob decoded as UTF-8). */
export async function readWidget(client: Client, uri: string): Promise<WidgetDocument> {
  const { contents } = await client.readResource({ uri });
  const item = contents.find((c) => c.uri === uri) ?? contents[0];
  if (!item) throw new Error(`The server returned no contents for ${uri}`);
  const html =
    "text" in item && typeof item.text === "string" ? item.text : decodeBase64("blob" in item ? item.blob : "");
  return { uri, mimeType: item.mimeType ?? null, html, meta: item._meta ?? {} };
}

function decodeBase64(b64: string): string {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}
