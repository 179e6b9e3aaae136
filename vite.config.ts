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
          `${options.dir}/${file.fileName}: ${(bytes.length / 1024).toFixed(1)} KB, ${(gz / 1024).toFixed(1)} KB gzipped`,
        );
      }
    },
  };
}

export default defineConfig({
  root: "web/widget",
  base: "./",
  plugins: [react(), viteSingleFile({ removeViteModuleLoader: true }), reportSize()],
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
