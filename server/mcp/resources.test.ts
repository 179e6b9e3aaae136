import { McpError, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  GetJobResultOutput,
  JobResultPageSchema,
  StartBulkOutput,
  TOOL,
  URI,
  type JobResultPage,
  type PersonResult,
} from "../../shared/tools.js";
import { useTestClient } from "../../test-kit/servers/test-server.js";

const t = useTestClient();

/** The text of a resource's first content (blobs have none). */
const textOf = (contents: ({ text: string } | { blob: string })[]): string =>
  "text" in contents[0] ? contents[0].text : "";

async function readError(uri: string): Promise<McpError> {
  const error = await t.client.readResource({ uri }).catch((e: unknown) => e);
  if (!(error instanceof McpError)) throw new Error(`expected an McpError, got ${String(error)}`);
  return error;
}

async function startJob(rows: number, name = (i: number) => `P${i}`): Promise<string> {
  const csv = [
    "name,department,interests",
    ...Array.from({ length: rows }, (_, i) => `${name(i)},Design,tea|yoga`),
  ].join("\n");
  const result = await t.client.callTool({
    name: TOOL.startBulk,
    arguments: { csv, occasion: "welcome", budgetPerPerson: 30 },
  });
  return StartBulkOutput.parse(result.structuredContent).jobId;
}

/** Every part of a job's result, following `next` from the result's own URI. */
async function readAllParts(jobId: string): Promise<JobResultPage[]> {
  const parts: JobResultPage[] = [];
  for (let uri: string | null = URI.jobResult(jobId); uri !== null;) {
    const { contents } = await t.client.readResource({ uri });
    const part = JobResultPageSchema.parse(JSON.parse(textOf(contents)));
    parts.push(part);
    uri = part.next;
  }
  return parts;
}

describe("resources", () => {
  it("lists the catalog, the widget and the job result template", async () => {
    const { resources } = await t.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      URI.catalog,
      expect.stringMatching(/^ui:\/\/widget\/giftgenius\.[0-9a-f]{8}\.html$/),
    ]);
    const { resourceTemplates } = await t.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: URI.jobResultTemplate, mimeType: "application/json" }),
      expect.objectContaining({ uriTemplate: URI.jobResultPageTemplate, mimeType: "application/json" }),
      expect.objectContaining({ uriTemplate: URI.jobResultCsvTemplate, mimeType: "text/csv" }),
    ]);
  });

  it("reads the gift catalog as JSON", async () => {
    const { contents } = await t.client.readResource({ uri: URI.catalog });
    expect(contents[0]).toMatchObject({ uri: URI.catalog, mimeType: "application/json" });
    const catalog = JSON.parse(textOf(contents));
    expect(catalog.items.length).toBe(catalog.count);
    expect(catalog.count).toBeGreaterThanOrEqual(300);
    expect(catalog.items[0]).toEqual(
      expect.objectContaining({ id: expect.any(String), price: expect.any(Number), tags: expect.any(Array) }),
    );
  });

  it("reads the widget: self-contained HTML with the MCP Apps mime type and CSP in both forms", async () => {
    const { resources } = await t.client.listResources();
    const listed = resources.find((r) => r.uri.startsWith("ui://"));
    if (!listed) throw new Error("no widget resource listed");
    expect(listed.mimeType).toBe("text/html;profile=mcp-app");
    const { contents } = await t.client.readResource({ uri: listed.uri });
    const html = textOf(contents);
    expect(contents[0].mimeType).toBe("text/html;profile=mcp-app");
    expect(html).toMatch(/<script[\s>]/);
    expect(html).not.toMatch(/<script[^>]+src=["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/<link[^>]+href=["']?(https?:)?\/\//i);
    expect(contents[0]._meta).toMatchObject({
      ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true },
      "openai/widgetCSP": { connect_domains: [], resource_domains: [] },
      "openai/widgetDescription": expect.any(String),
      "openai/widgetPrefersBorder": true,
    });
  });

  it("reads a finished job's result through the template: the head and the first people", async () => {
    const jobId = await startJob(25);
    await t.client.callTool({ name: TOOL.waitForJob, arguments: { jobId } });
    const { contents } = await t.client.readResource({ uri: URI.jobResult(jobId) });
    const result = JobResultPageSchema.parse(JSON.parse(textOf(contents)));
    expect(result).toMatchObject({ jobId, occasion: "welcome", budgetPerPerson: 30, total: 25, offset: 0, next: null });
    expect(result.people).toHaveLength(25);
  });

  it("serves a large result in parts that link the next, holding every person once, as get_job_result does", async () => {
    const jobId = await startJob(4_500);
    await t.client.callTool({ name: TOOL.waitForJob, arguments: { jobId } });
    const parts = await readAllParts(jobId);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    expect(parts.map((p) => p.offset)).toEqual(
      parts.map((_, i) => parts.slice(0, i).reduce((n, p) => n + p.people.length, 0)),
    );
    expect(parts.every((p) => p.total === 4_500 && p.summary === parts[0].summary)).toBe(true);
    const paged: PersonResult[] = [];
    for (let offset = 0; offset < 4_500; offset += 500) {
      const page = await t.client.callTool({ name: TOOL.getJobResult, arguments: { jobId, offset, limit: 500 } });
      paged.push(...GetJobResultOutput.parse(page.structuredContent).people);
    }
    expect(parts.flatMap((p) => p.people)).toEqual(paged);
  });

  it("keeps each part near 1 MB however large the people are", async () => {
    // names as long as a cell may be (32,767 characters, Excel's own limit): ~30 people a part
    const jobId = await startJob(60, (i) => `P${i}-${"x".repeat(32_000)}`);
    await t.client.callTool({ name: TOOL.waitForJob, arguments: { jobId } });
    const parts = await readAllParts(jobId);
    expect(parts.flatMap((p) => p.people.map((x) => x.row))).toEqual(Array.from({ length: 60 }, (_, i) => i + 2));
    for (const part of parts) {
      const bytes = Buffer.byteLength(JSON.stringify(part.people));
      if (part.people.length > 1) expect(bytes).toBeLessThanOrEqual(1024 * 1024 + part.people.length + 1);
    }
    expect(parts.length).toBeGreaterThanOrEqual(2);
  });

  it("serves the result as CSV in the same parts, with every formula cell defused", async () => {
    const names = ['=HYPERLINK("http://x","y")', "+SUM(1,2)", "@cmd", "-1", "Plain"];
    const jobId = await startJob(2_500, (i) => (i < names.length ? `"${names[i].replace(/"/g, '""')}"` : `P${i}`));
    await t.client.callTool({ name: TOOL.waitForJob, arguments: { jobId } });
    const texts: string[] = [];
    for (let uri: string | null = URI.jobResultCsv(jobId); uri !== null;) {
      const { contents } = await t.client.readResource({ uri });
      expect(contents[0]).toMatchObject({ uri, mimeType: "text/csv" });
      texts.push(textOf(contents));
      const next: unknown = contents[0]._meta?.["giftgenius/next"];
      uri = typeof next === "string" ? next : null;
    }
    expect(texts.length).toBeGreaterThanOrEqual(2);
    const lines = texts.join("").split("\r\n");
    expect(lines[0]).toBe("row,name,department,interests,budget (USD),gifts");
    expect(lines.slice(1, 6).map((l) => l.slice(0, l.indexOf(",Design")))).toEqual([
      `2,"'=HYPERLINK(""http://x"",""y"")"`,
      `3,"'+SUM(1,2)"`,
      "4,'@cmd",
      "5,'-1",
      "6,Plain",
    ]);
    expect(lines.filter((l) => l !== "")).toHaveLength(2_501);
  });

  it("answers unknown URIs and unknown jobs with -32002 Resource not found and the uri", async () => {
    for (const uri of [
      "gifts://nothing",
      "ui://widget/giftgenius.00000000.html",
      URI.jobResult("job_missing"),
      URI.jobResultPage("job_missing", 10),
      "gifts://jobs/job_x/result?offset=-1",
      "gifts://jobs/job_x/result?offset=01",
      URI.jobResultCsv("job_missing"),
    ]) {
      const error = await readError(uri);
      expect(error.code).toBe(-32002);
      expect(error.message).toContain("Resource not found");
      expect(error.data).toMatchObject({ uri });
    }
  });

  it("notifies a subscriber when a job's result is ready, and refuses unknown URIs", async () => {
    const jobId = await startJob(40);
    const updated = new Promise<string>((resolve) =>
      t.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)),
    );
    await t.client.subscribeResource({ uri: URI.jobResult(jobId) });
    await t.client.callTool({ name: TOOL.waitForJob, arguments: { jobId } });
    expect(await updated).toBe(URI.jobResult(jobId));
    await t.client.unsubscribeResource({ uri: URI.jobResult(jobId) });

    const error = await t.client.subscribeResource({ uri: "gifts://nothing" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32002);
  });
});
