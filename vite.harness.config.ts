/**
 * Builds the local host harness (web/harness) into dist/harness/, a normal multi-file build with
 * relative URLs, which the server serves at `/` beside `/mcp`. In `vite -c vite.harness.config.ts`
 * (dev), `/mcp` is proxied to the running server (MCP_ORIGIN, default http://127.0.0.1:8787).
 */
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

export default defineConfig({
  root: "web/harness",
  base: "./",
  plugins: [react()],
  build: {
    outDir: "../../dist/harness",
    emptyOutDir: true,
    target: "es2022",
    reportCompressedSize: false,
    // A local developer tool: the MCP SDK client (with its schema validators) is most of it.
    chunkSizeWarningLimit: 1024,
  },
  server: {
    // The Host header is kept, so the server sees a loopback page calling its own host and allows it.
    proxy: { "/mcp": { target: process.env.MCP_ORIGIN ?? "http://127.0.0.1:8787", changeOrigin: false } },
  },
  logLevel: "info",
});
