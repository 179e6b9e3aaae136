import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globals: true,
    include: [
      "shared/**/*.test.ts",
      "server/**/*.test.ts",
      "web/**/*.test.{ts,tsx}",
      "bench/**/*.test.ts",
      "test-kit/**/*.test.ts",
    ],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
