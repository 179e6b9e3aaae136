/**
 * Builds the widget (web/widget) into ONE self-contained HTML document, dist/widget/index.html,
 * which the server serves as the widget resource. Prints the gzipped size.
 */
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import { viteSingleFile } from "vite-plugin-singlefile";
import { gzipSync } from "node:zlib";

function reportSize(): Plugin {
  return {
    name: "report-gzip-size",
    apply: "build",
    enforce: "post",
    writeBundle(options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== "asset" || !file.fileName.endsWith(".html")) continue;
        const bytes = Buffer.from(file.source);
        const gz = gzipSync(bytes, { level: 9 }).length;
        console.log(
          `${options.dir}/${file.fileName}: ${(bytes.length / 1024).toFixed(1)} KB, ${(gz / 1024).toFixed(2)} KB gzipped`,
        );
      }
    },
  };
}

/** `.check(z.describe(…))` with one string (or a constant naming one), as shared/tools.ts writes them. */
const DESCRIBE = /\.check\(\s*z\.describe\(\s*(?:"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`|[A-Z_]+)\s*,?\s*\)\s*,?\s*\)/g;

/**
 * Leaves the tools' field descriptions out of the widget: they document the tools' inputs for the
 * model (`z.describe` in shared/tools.ts), and the widget, which parses with those schemas, never
 * reads them. About 0.65 KB gzipped: the texts, and zod's registry that would hold them.
 */
function withoutDescriptions(): Plugin {
  return {
    name: "without-descriptions",
    enforce: "pre",
    transform(code, id) {
      if (!id.endsWith("/shared/tools.ts")) return null;
      const stripped = code.replace(DESCRIBE, "");
      if (stripped.includes("z.describe(")) this.warn("a z.describe(…) of another form stays in the widget");
      return { code: stripped, map: null };
    },
  };
}

export default defineConfig({
  root: "web/widget",
  base: "./",
  plugins: [withoutDescriptions(), react(), viteSingleFile({ removeViteModuleLoader: true }), reportSize()],
  build: {
    outDir: "../../dist/widget",
    emptyOutDir: true,
    target: "es2022",
    reportCompressedSize: false,
    // one inlined script: no module preloading to polyfill
    modulePreload: { polyfill: false },
    // zod/mini schema builders have no side effects: schemas the widget never reads are dropped
    rolldownOptions: { treeshake: { manualPureFunctions: ["z"] } },
  },
  logLevel: "info",
});
