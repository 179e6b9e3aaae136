/**
 * CONTRIBUTING.md's map of the tree stays true: every file and folder its Layout section names
 * exists, and every folder of product code is named there, so a newcomer's first read is not stale.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dirname, "..");
const AREAS = ["shared/", "server/", "web/"];
/** Not the project's own: what installs, builds and runs make. */
const OUTSIDE = new Set([".git", "node_modules", "dist", ".tsbuild", "coverage", "test-artifacts", "data"]);

/** Every path in the repository, folders ending in "/". */
function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (OUTSIDE.has(entry.name)) continue;
    const rel = relative(root, join(dir, entry.name)).split("\\").join("/");
    if (!entry.isDirectory()) out.push(rel);
    else {
      out.push(`${rel}/`);
      walk(join(dir, entry.name), out);
    }
  }
  return out;
}

const layout = /## Layout\n([\s\S]*?)\n## /.exec(readFileSync(join(root, "CONTRIBUTING.md"), "utf8"))![1];
const named = [...layout.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]);
const isPath = (token: string) => /^[\w.-]+(\/[\w.-]+)*(\/|\.(ts|tsx|js|mjs|json))$/.test(token);
const paths = walk(root);
const [folders, files] = [paths.filter((p) => p.endsWith("/")), paths.filter((p) => !p.endsWith("/"))];
/** The folders of product code (what only tests use lives in test-kit/, outside them). */
const productFolders = folders.filter((p) => AREAS.some((area) => p.startsWith(area)));
const found = (token: string, among: string[]) => among.some((p) => p === token || p.endsWith(`/${token}`));

describe("CONTRIBUTING.md's layout", () => {
  it("names only files and folders that exist", () => {
    const missing = named.filter(isPath).filter((token) => !found(token, token.endsWith("/") ? folders : files));
    expect(missing).toEqual([]);
  });

  it("names every folder of product code", () => {
    const unnamed = productFolders.filter(
      (folder) => !named.some((token) => token.endsWith("/") && found(token, [folder])),
    );
    expect(unnamed).toEqual([]);
  });
});
