/**
 * Widget size: gzipped bytes of the built widget HTML (both host bridges in it) against React +
 * react-dom alone (the floor), both built by Vite the same way, in this run; and against the 100 KB
 * budget that the file picker, preview and downloads and the result views share.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "vite";
import react from "@vitejs/plugin-react";
import { viteSingleFile } from "vite-plugin-singlefile";
import { row, type BenchOptions, type BenchRow } from "./table.js";

const gz = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length;

/** Builds a page that renders one element with React + react-dom, the smallest React widget. */
async function buildFloor(): Promise<number> {
  // inside the project, so that react resolves from its node_modules
  mkdirSync("node_modules/.cache", { recursive: true });
  const dir = mkdtempSync(join(process.cwd(), "node_modules/.cache/gg-floor-"));
  try {
    writeFileSync(
      join(dir, "index.html"),
      `<!doctype html><html><body><div id="root"></div><script type="module" src="./main.tsx"></script></body></html>`,
    );
    writeFileSync(
      join(dir, "main.tsx"),
      `import { createRoot } from "react-dom/client";\ncreateRoot(document.getElementById("root")!).render(<p>floor</p>);\n`,
    );
    await build({
      root: dir,
      configFile: false,
      logLevel: "silent",
      base: "./",
      plugins: [react(), viteSingleFile({ removeViteModuleLoader: true })],
      build: { outDir: join(dir, "dist"), target: "es2022", reportCompressedSize: false },
    });
    return gz(join(dir, "dist", "index.html"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The widget as the project's vite.config.ts builds it, into a folder of its own (dist/ is left as it is). */
async function buildWidget(): Promise<number> {
  mkdirSync("node_modules/.cache", { recursive: true });
  const dir = mkdtempSync(join(process.cwd(), "node_modules/.cache/gg-widget-"));
  try {
    await build({ logLevel: "silent", build: { outDir: dir, emptyOutDir: true } });
    const html = readFileSync(join(dir, "index.html"), "utf8");
    if (/<script[^>]+src=|<link[^>]+stylesheet/i.test(html)) throw new Error("the widget is not self-contained");
    return gz(join(dir, "index.html"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Both built for production whatever NODE_ENV says: Vite follows it, and the test runner sets it
 * to "test", which would build React's development bundle.
 */
async function production<T>(work: () => Promise<T>): Promise<T> {
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    return await work();
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  }
}

export async function benchWidget(_: BenchOptions): Promise<BenchRow[]> {
  const widget = await production(buildWidget);
  const floor = await production(buildFloor);
  return [
    row({
      section: "widget",
      metric: "widget HTML, gzipped",
      value: widget,
      unit: "B",
      baseline: floor,
      baselineName: "React + react-dom alone",
      target: "≤ floor + 32 KB",
      met: widget - floor <= 32 * 1024,
    }),
    row({
      section: "widget",
      metric: "with both host bridges (MCP Apps, window.openai)",
      value: widget,
      unit: "B",
      baseline: null,
      baselineName: "",
      target: "≤ 100 KB",
      met: widget <= 100 * 1024,
    }),
  ];
}
