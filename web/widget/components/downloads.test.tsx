// @vitest-environment jsdom
/**
 * Downloads take the host's way: ChatGPT opens the file's link (`openExternal`), an MCP Apps host
 * that lists `downloadFile` gets the bytes in `ui/download-file` (the export asked for inline), one
 * that lists only `openLinks` gets `ui/open-link`, and a host with neither leaves the link on
 * screen with the time it stops working. The skipped rows download too, when there are any.
 */
import { InMemoryTransport } from "@modelcontextprotocol/client";
import { AppBridge, type McpUiHostCapabilities } from "@modelcontextprotocol/ext-apps/app-bridge";
import { render, screen, within } from "@testing-library/react";
import { act } from "react";
import userEvent from "@testing-library/user-event";
import { FILE_TOOL } from "../../../shared/files.js";
import { App } from "../app.js";
import { installFakeHost, type FakeHost, type FakeHostOptions } from "../../../test-kit/widget/fake-host.js";
import type { FollowTuning } from "../follow-job.js";
import { createHost, HostContext } from "../host-context.js";
import type { Host } from "../host.js";
import { createMcpAppsHost } from "../hosts/mcp-apps.js";
import type { Port } from "../hosts/mcp-apps.js";
import { jobEvent } from "../../../test-kit/job-events.js";
import { mountJobPanel } from "../../../test-kit/widget/mount-job-panel.js";
import { Downloads } from "./downloads.js";

const FAST: FollowTuning = { waitMs: 0, backoff: { baseMs: 1, maxMs: 4 }, idleMs: 1, callTimeoutMs: 2000 };
const SLOW = { timeout: 4000 };
const EXPIRES = Date.UTC(2030, 0, 1, 15, 30);
const until = `The link works until ${new Intl.DateTimeFormat("en-US", { timeStyle: "short" }).format(EXPIRES)}.`;

beforeEach(() => Reflect.set(globalThis, "IS_REACT_ACT_ENVIRONMENT", false));
let fake: FakeHost | undefined;
let host: Host | undefined;
let bridge: AppBridge | undefined;
afterEach(async () => {
  host?.dispose();
  fake?.uninstall();
  await bridge?.close();
  fake = host = bridge = undefined;
});

/** The widget over the fake ChatGPT host in fullscreen, its job completed with a skipped row. */
async function finishedJob(options: FakeHostOptions = {}) {
  fake = installFakeHost({
    jobs: [{ skipped: [{ row: 7, reason: "No name" }] }],
    batchSize: 10,
    displayMode: "fullscreen",
    ...options,
  });
  host = createHost();
  render(<App host={host} tuning={FAST} />);
  await screen.findByText("Completed", {}, SLOW);
  await screen.findByText("Person 3");
}
const group = (name: string) => within(screen.getByRole("group", { name }));

describe("downloads in ChatGPT", () => {
  it("opens the exported file's link with openExternal, for the picks and for the skipped rows", async () => {
    await finishedJob();
    expect(screen.getByText(/1 row skipped/)).toBeTruthy();
    await userEvent.click(group("Download the picks").getByRole("button", { name: "CSV" }));
    expect(await screen.findByText("picks.csv is ready.")).toBeTruthy();
    await userEvent.click(group("Download the skipped rows").getByRole("button", { name: "Excel (.xlsx)" }));
    expect(await screen.findByText("skipped.xlsx is ready.")).toBeTruthy();
    expect(fake!.argsOf(FILE_TOOL.exportResult)).toEqual([
      { jobId: "job-1", format: "csv", part: "picks", inline: false },
      { jobId: "job-1", format: "xlsx", part: "skipped", inline: false },
    ]);
    expect(fake!.argsOf("openExternal")).toEqual([
      { href: "https://files.example/job-1/picks.csv" },
      { href: "https://files.example/job-1/skipped.xlsx" },
    ]);
  });

  it("shows the link and when it expires where the host cannot open it", async () => {
    await finishedJob({ noOpenExternal: true, jobs: [{}] });
    expect(screen.queryByRole("group", { name: "Download the skipped rows" })).toBeNull();
    await userEvent.click(group("Download the picks").getByRole("button", { name: "Excel (.xlsx)" }));
    const link = await screen.findByRole("link", { name: "picks.xlsx" });
    expect(link.getAttribute("href")).toBe("https://files.example/job-1/picks.xlsx");
    expect(screen.getByText(until)).toBeTruthy();
  });
});

describe("downloads while the job composes", () => {
  it("offers the picks composed so far", async () => {
    const panel = mountJobPanel({ jobs: [{ people: 3, composedSoFar: 2 }] });
    try {
      act(() =>
        panel.store
          .getState()
          .dispatch("job-1", [
            jobEvent("job-1", 1, "job.created"),
            jobEvent("job-1", 2, "job.started"),
            jobEvent("job-1", 3, "job.progress", { stage: "compose", percentage: 90, processed: 2, total: 3 }),
          ]),
      );
      expect(await screen.findByText("Person 2")).toBeTruthy();
      expect(screen.getByText("2 people so far")).toBeTruthy();
      await userEvent.click(group("Download the picks").getByRole("button", { name: "CSV" }));
      expect(await screen.findByText("picks.csv is ready.")).toBeTruthy();
      expect(panel.fake.argsOf(FILE_TOOL.exportResult)).toEqual([
        { jobId: "job-1", format: "csv", part: "picks", inline: false },
      ]);
      expect(panel.fake.argsOf("openExternal")).toEqual([{ href: "https://files.example/job-1/picks.csv" }]);
    } finally {
      panel.dispose();
    }
  });
});

describe("downloads in an MCP Apps host", () => {
  /** The official host bridge with `capabilities`, answering export_job_result, linked to our adapter. */
  async function mcpApps(capabilities: McpUiHostCapabilities) {
    const [viewEnd, hostEnd] = InMemoryTransport.createLinkedPair();
    const b = new AppBridge(null, { name: "test-host", version: "1.0.0" }, capabilities);
    bridge = b;
    const exports: unknown[] = [];
    const delivered: unknown[] = [];
    b.oncalltool = async ({ name, arguments: args }) => {
      exports.push({ name, args });
      const structuredContent = {
        jobId: "job-9",
        fileName: "picks.csv",
        mimeType: "text/csv",
        size: 9,
        rows: 1,
        partial: false,
        url: "https://files.example/job-9/picks.csv",
        expiresAt: EXPIRES,
        ...(args?.inline ? { data: btoa("name,gift") } : {}),
      };
      return { structuredContent, content: [] };
    };
    b.ondownloadfile = async (params) => (delivered.push(params), {});
    b.onopenlink = async (params) => (delivered.push(params), {});
    const initialized = new Promise<void>((resolve) => b.addEventListener("initialized", () => resolve()));
    await b.connect(hostEnd);
    const listeners = new Set<(m: unknown) => void>();
    viewEnd.onmessage = (m) => listeners.forEach((l) => l(m));
    await viewEnd.start();
    const port: Port = {
      post: (message) => void viewEnd.send(message as never),
      listen(receive) {
        listeners.add(receive);
        return () => void listeners.delete(receive);
      },
    };
    const win = { parent: {}, setTimeout: globalThis.setTimeout.bind(globalThis) } as unknown as Window;
    host = createMcpAppsHost(win, port);
    await initialized;
    render(
      <HostContext.Provider value={host}>
        <Downloads jobId="job-9" skipped={false} />
      </HostContext.Provider>,
    );
    return { exports, delivered };
  }

  it("hands the bytes to ui/download-file where the host lists downloadFile", async () => {
    const { exports, delivered } = await mcpApps({ serverTools: {}, openLinks: {}, downloadFile: {} });
    await userEvent.click(screen.getByRole("button", { name: "CSV" }));
    expect(await screen.findByText("picks.csv is ready.")).toBeTruthy();
    expect(exports).toEqual([
      { name: FILE_TOOL.exportResult, args: { jobId: "job-9", format: "csv", part: "picks", inline: true } },
    ]);
    expect(delivered).toEqual([
      {
        contents: [
          {
            type: "resource",
            resource: { uri: "https://files.example/job-9/picks.csv", mimeType: "text/csv", blob: btoa("name,gift") },
          },
        ],
      },
    ]);
  });

  it("opens the link with ui/open-link where the host lists only openLinks", async () => {
    const { exports, delivered } = await mcpApps({ serverTools: {}, openLinks: {} });
    await userEvent.click(screen.getByRole("button", { name: "CSV" }));
    expect(await screen.findByText("picks.csv is ready.")).toBeTruthy();
    expect(exports).toMatchObject([{ args: { inline: false } }]);
    expect(delivered).toEqual([{ url: "https://files.example/job-9/picks.csv" }]);
  });

  it("shows the link where the host lists neither", async () => {
    const { delivered } = await mcpApps({ serverTools: {} });
    await userEvent.click(screen.getByRole("button", { name: "CSV" }));
    expect((await screen.findByRole("link", { name: "picks.csv" })).getAttribute("href")).toBe(
      "https://files.example/job-9/picks.csv",
    );
    expect(screen.getByText(until)).toBeTruthy();
    expect(delivered).toEqual([]);
  });
});
