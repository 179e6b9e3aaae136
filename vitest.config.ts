import { defineConfig } from "vitest/config";

/** Tests that drive Chromium and measure what a person sees (long tasks, layout). */
const browser = ["web/harness/**/*e2e.test.ts"];
/**
 * Tests that measure the server under load (the load test, the worst inputs' event-loop delays, a
 * connection flood, a burst): they run one at a time with the machine to themselves, since another file's
 * work on the same two cores would read as the server's own delay.
 */
const load = [
  "server/load.test.ts",
  "server/jobs/worst-input.test.ts",
  "server/accept-flood.test.ts",
  "server/burst.test.ts",
];

export default defineConfig({
  test: {
    globals: true,
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          include: [
            "shared/**/*.test.ts",
            "server/**/*.test.ts",
            "web/**/*.test.{ts,tsx}",
            "bench/**/*.test.ts",
            "test-kit/**/*.test.ts",
            "eslint-rules/**/*.test.js",
          ],
          exclude: [...browser, ...load],
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: "load", include: load, fileParallelism: false, sequence: { groupOrder: 1 } } },
      {
        // last, one file at a time: the browser's timings must not share the machine with the
        // load, crash and memory tests
        extends: true,
        test: { name: "browser", include: browser, fileParallelism: false, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
