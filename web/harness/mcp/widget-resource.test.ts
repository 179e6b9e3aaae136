import type { Resource, Tool } from "@modelcontextprotocol/client";
import { isWidgetResource, widgetUriFor } from "./widget-resource.js";

const tool = (name: string, _meta?: Record<string, unknown>): Tool => ({
  name,
  inputSchema: { type: "object" },
  _meta,
});
const resources: Resource[] = [
  { uri: "gifts://catalog", name: "catalog", mimeType: "application/json" },
  { uri: "ui://widget/old.html", name: "old", mimeType: "text/plain" },
  { uri: "ui://widget/giftgenius-abc.html", name: "widget", mimeType: "text/html;profile=mcp-app" },
];

describe("widgetUriFor", () => {
  it("takes the tool's openai/outputTemplate first", () => {
    const tools = [tool("start", { "openai/outputTemplate": "ui://widget/x.html", ui: { resourceUri: "ui://y" } })];
    expect(widgetUriFor("start", tools, resources)).toBe("ui://widget/x.html");
  });

  it("falls back to the MCP Apps resourceUri", () => {
    expect(widgetUriFor("start", [tool("start", { ui: { resourceUri: "ui://y" } })], resources)).toBe("ui://y");
  });

  it("otherwise takes the first ui:// resource with a widget mime type", () => {
    expect(widgetUriFor("start", [tool("start")], resources)).toBe("ui://widget/giftgenius-abc.html");
    expect(widgetUriFor("unknown", [], resources)).toBe("ui://widget/giftgenius-abc.html");
  });

  it("returns null when there is no widget", () => {
    expect(widgetUriFor("start", [tool("start")], resources.slice(0, 2))).toBeNull();
  });

  it("recognises both widget mime types and only ui:// URIs", () => {
    expect(isWidgetResource({ uri: "ui://a", mimeType: "text/html+skybridge" })).toBe(true);
    expect(isWidgetResource({ uri: "ui://a", mimeType: "text/html;profile=mcp-app" })).toBe(true);
    expect(isWidgetResource({ uri: "https://a", mimeType: "text/html+skybridge" })).toBe(false);
    expect(isWidgetResource({ uri: "ui://a", mimeType: "text/html" })).toBe(false);
  });
});
