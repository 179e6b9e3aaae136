import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
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

describe("the built widget", () => {
  const widget = loadWidget("dist/widget/index.html");

  it("declares a CSP that allows no outside origin, and loads nothing from one", () => {
    expect(widget.built).toBe(true);
    expect(widget.meta.ui).toMatchObject({ csp: { connectDomains: [], resourceDomains: [] } });
    expect(widget.meta["openai/widgetCSP"]).toEqual({ connect_domains: [], resource_domains: [] });
    // every script and style is inlined: no src, href or url() points anywhere
    const outside =
      /(?:src|href)\s*=\s*["']?\s*(?:[a-z][a-z0-9+.-]*:)?\/\/|url\(\s*["']?\s*(?:[a-z][a-z0-9+.-]*:)?\/\//gi;
    expect(widget.html.match(outside)).toBeNull();
  });

  it("stays within its budget: 100 KB gzipped, both host bridges and every view in it", () => {
    expect(gzipSync(widget.html, { level: 9 }).length).toBeLessThanOrEqual(100 * 1024);
  });

  it("never renders server text as HTML: no raw-HTML sink anywhere in its source", () => {
    const sinks =
      /dangerouslySetInnerHTML|innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment/;
    const sources = readdirSync("web/widget", { recursive: true, encoding: "utf8" }).filter(
      (f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f),
    );
    expect(sources.length).toBeGreaterThan(10);
    for (const file of sources) {
      expect(readFileSync(join("web/widget", file), "utf8"), file).not.toMatch(sinks);
    }
  });
});
