/**
 * The README and the pages under docs/ stay true to the tree: every relative link and image opens
 * a file that exists (and its #anchor a heading there, slugged as GitHub slugs them), and every
 * repository path a page names in backticks exists, so a reader never follows a dead end.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const root = join(import.meta.dirname, "..");
/** What installs, builds, tests and benchmarks write: a page may name it, the tree does not hold it. */
const OUTPUTS = ["node_modules/", "dist/", "data/", "test-artifacts/", "coverage/", ".tsbuild/", "bench/results.json"];

const pages = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
/** The repository's top-level entries: a code span that starts with one of them and a "/" names a path. */
const topLevel = new Set(readdirSync(root).filter((name) => name !== ".git"));

/** A page's text without its fenced code blocks (a shell example or a config file is not prose). */
function prose(text: string): string {
  return text.replace(/^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?^[ \t]*\1[^\n]*$/gm, "");
}

/** GitHub's anchor for a heading: lower case, markup and punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*_]/g, "")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** Every anchor a page offers: its headings' slugs, a repeated one with -1, -2, … as GitHub numbers them. */
function anchors(page: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of prose(readFileSync(join(root, page), "utf8")).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

/** The relative targets of a page's Markdown links and images, as written. */
function links(text: string): string[] {
  const targets = [...prose(text).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with one link from a page: "" when it opens a file (and its anchor a heading there). */
function brokenLink(page: string, target: string): string {
  const [path, anchor] = target.split("#", 2);
  const file =
    path === ""
      ? page
      : relative(root, join(root, dirname(page), decodeURI(path)))
          .split("\\")
          .join("/");
  if (!existsSync(join(root, file))) return `${target}: no file ${file}`;
  if (anchor === undefined || !file.endsWith(".md")) return "";
  return anchors(file).has(decodeURIComponent(anchor)) ? "" : `${target}: no heading #${anchor} in ${file}`;
}

/**
 * The repository paths a page names in code spans: a folder (`server/jobs/runner/`) or a file
 * (`bench/run.ts`, `.ci/run`) under a top-level entry. A span without a trailing slash or an
 * extension (`tools/call`, `server/discover`) is an MCP method, not a path.
 */
function namedPaths(text: string): string[] {
  const spans = [...prose(text).matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
  return spans.filter(
    (span) =>
      /^\.?[\w-]+(\/[\w.-]+)*\/?$/.test(span) &&
      span.includes("/") &&
      (span.endsWith("/") || /\.\w+$/.test(span) || span.startsWith(".")) &&
      topLevel.has(span.split("/")[0]) &&
      !OUTPUTS.some((output) => span === output.replace(/\/$/, "") || span.startsWith(output)),
  );
}

describe.each(pages)("%s", (page) => {
  const text = readFileSync(join(root, page), "utf8");

  it("links only to files and headings that exist", () => {
    expect(
      links(text)
        .map((target) => brokenLink(page, target))
        .filter(Boolean),
    ).toEqual([]);
  });

  it("names only repository paths that exist", () => {
    expect(namedPaths(text).filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });
});

describe.each(pages.filter((page) => page.startsWith("docs/")))("%s", (page) => {
  it("says what it is for under its title and links back to the README", () => {
    const [title, blank, purpose] = readFileSync(join(root, page), "utf8").split("\n");
    expect([title.startsWith("# "), blank, purpose]).toEqual([true, "", expect.stringContaining("](../README.md)")]);
  });
});

describe("the checks themselves", () => {
  const all = pages.map((page) => readFileSync(join(root, page), "utf8")).join("\n");

  it("find the links and paths the pages hold, so a check that sees nothing cannot pass", () => {
    expect(pages.length).toBeGreaterThanOrEqual(9);
    expect(links(all).length).toBeGreaterThan(20);
    expect(namedPaths(all).length).toBeGreaterThan(50);
  });

  it("leave fenced code out, a fence inside a list item too", () => {
    expect(prose("a\n```sh\nx\n```\nb\n- CLI:\n  ```sh\n  `server/x.ts`\n  ```\nc")).toBe("a\n\nb\n- CLI:\n\nc");
  });

  it("slug headings as GitHub does", () => {
    expect(slug("Two protocol eras on one endpoint")).toBe("two-protocol-eras-on-one-endpoint");
    expect(slug("Money: a currency everywhere")).toBe("money-a-currency-everywhere");
    expect(slug("Behind `nginx` (one file)")).toBe("behind-nginx-one-file");
    expect(slug("Stopping (SIGTERM)")).toBe("stopping-sigterm");
  });

  it("tell a dead link, a missing heading and a missing path", () => {
    expect(brokenLink("README.md", "docs/nowhere.md")).toMatch(/no file docs\/nowhere\.md/);
    expect(brokenLink("docs/files.md", "../README.md#no-such-heading")).toMatch(/no heading/);
    expect(brokenLink("docs/files.md", "images/files-picker.png")).toBe("");
    const spans =
      "`server/no-such-file.ts`, `web/gone/`, `.ci/run`, `tools/call`, `text/html`, `dist/widget/`, `/etc/nginx/`";
    expect(namedPaths(spans)).toEqual(["server/no-such-file.ts", "web/gone/", ".ci/run"]);
  });
});
