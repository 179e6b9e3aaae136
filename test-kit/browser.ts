/**
 * What the browser tests share: where the built harness and widget are, where pictures go, the
 * real server serving them, and Chromium as every test launches it.
 */
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";
import type { AppOptions } from "../server/app.js";
import { startTestServer, type TestServer } from "../server/test-support.js";

/** A path from the repository's root. */
export const root = (p: string): string => fileURLToPath(new URL(`../${p}`, import.meta.url));
export const HARNESS_DIR = root("dist/harness");
export const WIDGET_HTML = root("dist/widget/index.html");
/** Screenshots and figures a person looks at after a run. */
export const ARTIFACTS = root("test-artifacts");

/** The server options that serve the built harness and widget, with the dev pace on. */
export const HARNESS_SERVER: Partial<AppOptions> = {
  staticDir: HARNESS_DIR,
  widgetHtmlPath: WIDGET_HTML,
  devPace: true,
};

/** Throws unless `npm run build` has been run; makes the artifacts folder. */
export function requireBuild(): void {
  for (const built of [`${HARNESS_DIR}/index.html`, WIDGET_HTML]) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` before this test`);
  }
  mkdirSync(ARTIFACTS, { recursive: true });
}

/** The real server serving the built harness, on a free port (or `port`, to start again where it was). */
export function startHarnessServer(options: Partial<AppOptions> = {}, port = 0): Promise<TestServer> {
  return startTestServer({ ...HARNESS_SERVER, ...options }, port);
}

/** The system's Chromium, headless. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}
