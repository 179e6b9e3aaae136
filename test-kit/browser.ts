/**
 * What the browser tests share: where the built harness and widget are, where pictures go, the
 * real server serving them, Chromium as every test launches it, a file's hooks that start and
 * close both, with a page of the harness opened and connected, and the widget a harness button mounts.
 */
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContextOptions, type Frame, type Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { startTestServer, type TestServer, type TestServerOptions } from "./servers/test-server.js";

/** A path from the repository's root. */
const root = (p: string): string => fileURLToPath(new URL(`../${p}`, import.meta.url));
const HARNESS_DIR = root("dist/harness");
const WIDGET_HTML = root("dist/widget/index.html");
/** Screenshots and figures a person looks at after a run. */
export const ARTIFACTS = root("test-artifacts");

/** The server options that serve the built harness and widget, with the dev pace on. */
const HARNESS_SERVER: TestServerOptions = {
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
export function startHarnessServer(options: TestServerOptions = {}, port = 0): Promise<TestServer> {
  return startTestServer({ ...HARNESS_SERVER, ...options }, port);
}

/** The system's Chromium, headless. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}

type OpenHarnessOptions = BrowserContextOptions & {
  /** What the top bar's status shows once the harness is connected. */
  connected?: string | RegExp;
  /** Runs on the page before it loads the harness (to add an init script, say). */
  before?: (page: Page) => Promise<unknown>;
};

type BrowserTests = {
  /** The server the hooks started; read it in a hook or a test. */
  readonly server: TestServer;
  /** A page of its own context, the harness loaded and connected, with the errors the page throws. */
  openHarness(options?: OpenHarnessOptions): Promise<{ page: Page; errors: string[] }>;
};

/**
 * Sets a browser test file up: before all its tests, the build checked, the harness server started
 * (with `options`) and Chromium launched; after them, both closed.
 */
export function setUpBrowserTests(options: TestServerOptions = {}): BrowserTests {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    requireBuild();
    server = await startHarnessServer(options);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined)
      throw new Error("the server and the browser start in beforeAll: use them in a hook or a test");
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    async openHarness({ connected = "session", before, ...context } = {}) {
      const page = await (await started(browser).newContext(context)).newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await before?.(page);
      await page.goto(`${started(server).url}/`);
      await page.getByRole("status").filter({ hasText: connected }).waitFor({ timeout: 15_000 });
      return { page, errors };
    },
  };
}

/** On failure, a picture of the page is the quickest clue. */
export async function withFailureShot(page: Page, name: string, body: () => Promise<void>) {
  try {
    await body();
  } catch (error) {
    await page.screenshot({ path: `${ARTIFACTS}/${name}-failure.png`, fullPage: true }).catch(() => undefined);
    throw error;
  }
}

/** The widget's frame, once one other than `previous` is mounted (the harness mounts one at a time). */
export async function widgetFrame(page: Page, previous?: Frame, timeout = 60_000): Promise<Frame> {
  let frame: Frame | undefined;
  await expect
    .poll(
      () =>
        (frame = page
          .mainFrame()
          .childFrames()
          .find((f) => f !== previous && !f.isDetached())),
      { timeout },
    )
    .toBeDefined();
  return frame!;
}

/** Clicks the harness's `button` (a tool call) and returns the widget mounted for its result. */
export async function mountFrom(page: Page, button: string): Promise<Frame> {
  const before = page.mainFrame().childFrames()[0];
  await page.getByRole("button", { name: button }).click();
  return widgetFrame(page, before);
}
