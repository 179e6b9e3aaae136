import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadWidget, toolMeta, WIDGET_MIME_TYPE } from "./widget.js";

function widgetFile(html: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "widget-")), "index.html");
  writeFileSync(path, html);
  return path;
}

describe("loadWidget", () => {
  it("names the widget by a hash of its content", () => {
    const a = loadWidget(widgetFile("<html>a</html>"));
    const b = loadWidget(widgetFile("<html>b</html>"));
    expect(a.uri).toMatch(/^ui:\/\/widget\/giftgenius\.[0-9a-f]{8}\.html$/);
    expect(a.uri).not.toBe(b.uri);
    expect(loadWidget(widgetFile("<html>a</html>")).uri).toBe(a.uri);
    expect(a).toMatchObject({ html: "<html>a</html>", mimeType: WIDGET_MIME_TYPE, built: true });
  });

  it("declares no outside domains, in the MCP Apps and the ChatGPT form", () => {
    const { meta } = loadWidget(widgetFile("<html></html>"));
    expect(meta).toMatchObject({
      ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true },
      "openai/widgetCSP": { connect_domains: [], resource_domains: [] },
      "openai/widgetPrefersBorder": true,
    });
    expect(meta["openai/widgetDescription"]).toEqual(expect.any(String));
    expect(meta).not.toHaveProperty("openai/widgetDomain");
    expect(meta.ui).not.toHaveProperty("domain");
  });

  it("names the widget's own origin in both forms when one is configured", () => {
    const { meta } = loadWidget(widgetFile("<html></html>"), "https://giftgenius.example.com");
    expect(meta).toMatchObject({
      ui: { domain: "https://giftgenius.example.com" },
      "openai/widgetDomain": "https://giftgenius.example.com",
    });
  });

  it("serves a placeholder that says how to build when the build is missing", () => {
    const widget = loadWidget(join(tmpdir(), "no-such-dir", "index.html"));
    expect(widget.built).toBe(false);
    expect(widget.html).toContain("npx vite build");
  });
});

describe("toolMeta", () => {
  const widget = loadWidget(widgetFile("<html></html>"));

  it("points a rendering tool at the widget in both forms, without the deprecated flat key", () => {
    expect(toolMeta(widget, { renders: { invoking: "Working…", invoked: "Done" } })).toEqual({
      ui: { resourceUri: widget.uri },
      "openai/outputTemplate": widget.uri,
      "openai/toolInvocation/invoking": "Working…",
      "openai/toolInvocation/invoked": "Done",
    });
  });

  it("hides widget-only tools from the model in both forms", () => {
    expect(toolMeta(widget, { calledByWidget: true, hiddenFromModel: true })).toEqual({
      ui: { visibility: ["app"] },
      "openai/widgetAccessible": true,
      "openai/visibility": "private",
    });
    expect(toolMeta(widget, { calledByWidget: true })).toEqual({ "openai/widgetAccessible": true });
  });
});
