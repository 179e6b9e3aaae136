import { createHash } from "node:crypto";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { CallToolResultSchema, McpError, type CallToolResult, type Progress } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import {
  GetJobEventsOutput,
  GetJobResultOutput,
  GetJobTableOutput,
  StartBulkOutput,
  SuggestGiftsOutput,
  TOOL,
  WaitForJobOutput,
} from "../../shared/tools.js";
import { FILE_TOOL } from "../../shared/files.js";
import { CATALOG } from "../gifts/catalog.js";
import { useTestClient } from "../../test-kit/servers/test-server.js";

const t = useTestClient();

const call = (name: string, args: Record<string, unknown>) =>
  t.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const text = (result: CallToolResult) => result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
const csvOf = (rows: number) =>
  [
    "name,department,interests,budget",
    ...Array.from(
      { length: rows },
      (_, i) => `Person ${i},${i % 2 ? "Sales" : "Engineering"},coffee;hiking,${30 + (i % 50)}`,
    ),
  ].join("\n");

describe("tools/list", () => {
  it("lists every tool with title, description, schemas and annotations", async () => {
    const { tools } = await t.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...Object.values(TOOL), ...Object.values(FILE_TOOL)].sort());
    for (const tool of tools) {
      expect(tool.title).toEqual(expect.any(String));
      expect(tool.description?.length).toBeGreaterThan(20);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.annotations).toMatchObject({
        readOnlyHint: expect.any(Boolean),
        destructiveHint: expect.any(Boolean),
        openWorldHint: false,
      });
    }
    // the limits a description states are the ones in force
    expect(tools.find((t) => t.name === TOOL.startBulk)?.description).toContain("up to 8 MB and 200,000 rows");
    const suggest = tools.find((t) => t.name === TOOL.suggestGifts);
    expect(suggest?.inputSchema.required).toEqual(["occasion", "budget"]);
    expect(suggest?.annotations?.readOnlyHint).toBe(true);
  });

  it("points the rendering tools at the widget and hides widget-only tools from the model", async () => {
    const { tools } = await t.client.listTools();
    const meta = Object.fromEntries(tools.map((t) => [t.name, t._meta ?? {}]));
    const { resources } = await t.client.listResources();
    const widgetUri = resources.find((r) => r.uri.startsWith("ui://"))?.uri;
    for (const name of [TOOL.suggestGifts, TOOL.startBulk, TOOL.showJob]) {
      expect(meta[name]).toMatchObject({
        "openai/outputTemplate": widgetUri,
        ui: { resourceUri: widgetUri },
        "openai/toolInvocation/invoking": expect.any(String),
        "openai/toolInvocation/invoked": expect.any(String),
      });
    }
    for (const name of [TOOL.getJobEvents, TOOL.getJobTable, TOOL.cancelJob, TOOL.claimFollowUp]) {
      expect(meta[name]).toMatchObject({
        "openai/widgetAccessible": true,
        "openai/visibility": "private",
        ui: { visibility: ["app"] },
      });
    }
    // every tool the widget calls may be called from it in ChatGPT ("Try again" starts a new analysis)
    for (const name of [TOOL.getJobEvents, TOOL.cancelJob, TOOL.getJobResult, TOOL.startBulk]) {
      expect(meta[name], name).toMatchObject({ "openai/widgetAccessible": true });
    }
    for (const name of Object.values(TOOL)) expect(meta[name]).not.toHaveProperty("ui/resourceUri");
    expect(meta[TOOL.getJobResult]).not.toHaveProperty("openai/visibility");
    expect(meta[TOOL.waitForJob]).not.toHaveProperty("openai/visibility");
    expect(meta[TOOL.listJobs]).not.toHaveProperty("openai/visibility");
  });
});

describe("suggest_gifts", () => {
  it("suggests catalog gifts within budget, ranked for the recipient, with a reason each", async () => {
    const result = await call(TOOL.suggestGifts, {
      occasion: "birthday",
      budget: 50,
      recipient: "a barista at heart who loves coffee",
      count: 4,
    });
    expect(result.isError).toBeFalsy();
    const parsed = SuggestGiftsOutput.parse(result.structuredContent);
    expect(parsed.gifts).toHaveLength(4);
    for (const gift of parsed.gifts) {
      const item = CATALOG.find((i) => i.id === gift.id);
      expect(item?.price).toBe(gift.price);
      expect(gift.price).toBeLessThanOrEqual(50);
      expect(gift.reason).toContain("coffee");
    }
    expect(text(result)).toContain(parsed.gifts[0].name);
  });

  it("answers in Korean for a Korean locale, by argument or by the host's hint, with the same gifts", async () => {
    // in dollars both times: the language alone changes
    const args = { occasion: "생일", budget: 60, recipient: "등산과 커피를 좋아하는 동료", count: 3, currency: "USD" };
    const english = SuggestGiftsOutput.parse((await call(TOOL.suggestGifts, args)).structuredContent);
    const byArgument = SuggestGiftsOutput.parse(
      (await call(TOOL.suggestGifts, { ...args, locale: "ko-KR" })).structuredContent,
    );
    const hinted = (await t.client.callTool({
      name: TOOL.suggestGifts,
      arguments: args,
      _meta: { "openai/locale": "ko-KR" },
    })) as CallToolResult;
    expect(SuggestGiftsOutput.parse(hinted.structuredContent)).toEqual(byArgument);
    expect(byArgument.gifts.map((g) => g.id)).toEqual(english.gifts.map((g) => g.id));
    for (const [k, gift] of byArgument.gifts.entries()) {
      const item = CATALOG.find((i) => i.id === gift.id);
      expect(gift).toMatchObject({ name: item?.ko.name, category: item?.ko.category, price: item?.price });
      expect(gift.reason).toMatch(/^(등산|커피)(을|를|과|와) .*좋아하셔서/);
      expect(english.gifts[k].reason).toMatch(/^Matches their interest in (hiking|coffee)/);
    }
    expect(text(hinted)).toContain(byArgument.gifts[0].name);
  });

  it("answers a budget nothing fits with isError and the cheapest workable budget", async () => {
    const result = await call(TOOL.suggestGifts, { occasion: "birthday", budget: 2 });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: "no_gift_fits" } });
    expect(text(result)).toMatch(/at least \$5/);
  });

  it("answers arguments that break the input schema with isError naming each field", async () => {
    const result = await call(TOOL.suggestGifts, { occasion: 7, budget: -3, count: 99 });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: "invalid_arguments" } });
    expect(text(result)).toContain("`occasion` must be a string, got a number");
    expect(text(result)).toContain("`budget` must be greater than 0");
    expect(text(result)).toContain("`count` must be at most 20");
  });

  it("answers an unknown tool with -32602 naming it", async () => {
    const error = await call("suggest_presents", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toContain('Unknown tool "suggest_presents"');
  });
});

describe("the job tools", () => {
  it("start, wait with progress, read events and results", async () => {
    const started = await call(TOOL.startBulk, { csv: csvOf(300), occasion: "holiday", budgetPerPerson: 40 });
    expect(started.isError).toBeFalsy();
    const { jobId, resultUri } = StartBulkOutput.parse(started.structuredContent);
    expect(text(started)).toContain(jobId);

    const progress: Progress[] = [];
    const waited = await t.client.callTool({ name: TOOL.waitForJob, arguments: { jobId } }, undefined, {
      onprogress: (p) => void progress.push(p),
    });
    const done = WaitForJobOutput.parse(waited.structuredContent);
    expect(done).toMatchObject({ jobId, status: "completed", done: true });
    expect(progress.length).toBeGreaterThan(0);
    for (const [i, p] of progress.entries()) {
      expect(p.total).toBe(100);
      expect(p.message).toEqual(expect.any(String));
      if (i > 0) expect(p.progress).toBeGreaterThan(progress[i - 1].progress);
    }

    const events = GetJobEventsOutput.parse((await call(TOOL.getJobEvents, { jobId })).structuredContent);
    expect(events.events[0].type).toBe("job.created");
    expect(events.done).toBe(true);
    expect(events.events.at(-1)?.type).toBe("job.completed");

    const page = await call(TOOL.getJobResult, { jobId, limit: 10 });
    const result = GetJobResultOutput.parse(page.structuredContent);
    expect(result).toMatchObject({ jobId, total: 300, offset: 0, nextOffset: 10, resultUri });
    expect(result.people).toHaveLength(10);
    expect(page.content).toContainEqual(
      expect.objectContaining({ type: "resource_link", uri: resultUri, mimeType: "application/json" }),
    );
    expect(text(page)).toContain("People 1–10 of 300");

    // the same people as table rows, for the widget's table
    const table = GetJobTableOutput.parse(
      (await call(TOOL.getJobTable, { jobId, offset: 5, limit: 5 })).structuredContent,
    );
    expect(table).toMatchObject({ jobId, total: 300, offset: 5, nextOffset: 10, partial: false });
    // row, name, department, budget, then the top pick's name and price
    const [fifth] = result.people.slice(5);
    expect(table.rows[0]).toEqual([
      fifth.row,
      fifth.name,
      fifth.department,
      fifth.budget,
      fifth.gifts[0].name,
      fifth.gifts[0].price,
    ]);
    expect(table.rows.map((r) => r[0])).toEqual(result.people.slice(5).map((p) => p.row));
    const all = GetJobTableOutput.parse((await call(TOOL.getJobTable, { jobId })).structuredContent);
    expect(all).toMatchObject({ total: 300, nextOffset: null });
    expect(all.rows.map((r) => r[0])).toEqual(Array.from({ length: 300 }, (_, i) => i + 2));

    // the figures by department add up to the totals, and to the table's rows of each
    if (result.figures === undefined) throw new Error("a finished result has its figures");
    const { departments = [], ...totals } = result.figures;
    expect(departments.map((d) => d.department).sort()).toEqual(["Engineering", "Sales"]);
    for (const d of departments) {
      const rows = all.rows.filter((r) => r[2] === d.department);
      expect(d.people).toBe(rows.length);
      expect(d.budget).toBeCloseTo(
        rows.reduce((sum, r) => sum + r[3], 0),
        2,
      );
      expect(d.topPicks).toBeCloseTo(
        rows.reduce((sum, r) => sum + (r[5] ?? 0), 0),
        2,
      );
    }
    const sum = (key: "people" | "budget" | "topPicks") => departments.reduce((s, d) => s + d[key], 0);
    expect([sum("people"), sum("budget"), sum("topPicks")]).toEqual([totals.people, totals.budget, totals.topPicks]);
    // the model's summary leaves them out
    expect(result.summary).not.toMatch(/Sales|Engineering/);
  });

  it("cancels a running job once, then says there is nothing left to cancel", async () => {
    const { jobId } = StartBulkOutput.parse(
      (await call(TOOL.startBulk, { csv: csvOf(60_000), occasion: "farewell", budgetPerPerson: 50 })).structuredContent,
    );
    const first = await call(TOOL.cancelJob, { jobId });
    expect(first.structuredContent).toEqual({ jobId, status: "canceled", changed: true });
    const again = await call(TOOL.cancelJob, { jobId });
    expect(again.structuredContent).toEqual({ jobId, status: "canceled", changed: false });
    expect(text(again)).toContain("already canceled");
  });

  it("answers an unknown job with isError and the error in structuredContent", async () => {
    const result = await call(TOOL.getJobResult, { jobId: "job_nope" });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: "unknown_job", message: expect.any(String) } });
    expect(text(result).length).toBeGreaterThan(10);
  });

  it("passes the job service's own refusals on as isError results", async () => {
    const result = await call(TOOL.startBulk, {
      csv: "name,interests\nAda,tea\n",
      occasion: "  ",
      budgetPerPerson: 40,
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: "invalid_arguments" } });
  });
});

describe("every tool's answer", () => {
  it("has the wire shape and its tool's advertised output schema, for success and for isError", async () => {
    const { tools } = await t.client.listTools();
    const validator = new AjvJsonSchemaValidator();
    const schemas = new Map(tools.map((tool) => [tool.name, validator.getValidator(tool.outputSchema ?? {})]));
    const checked = new Set<string>();
    const check = async (name: string, args: Record<string, unknown>) => {
      const raw = await t.client.request(
        { method: "tools/call", params: { name, arguments: args } },
        z.looseObject({}), // the raw answer: checked below, not by the client
      );
      const result = CallToolResultSchema.parse(raw);
      const outcome = schemas.get(name)?.(result.structuredContent);
      expect(outcome?.valid, `${name}: ${outcome?.errorMessage}`).toBe(true);
      checked.add(name);
      return result.structuredContent as Record<string, unknown>;
    };
    const csv = "name,department,interests,budget\nAda,R&D,coffee;chess,40\n지민,영업,등산,45000\n";
    await check(TOOL.suggestGifts, { occasion: "birthday", budget: 60, recipient: "loves jazz" });
    await check(TOOL.suggestGifts, { occasion: "birthday", budget: 0.01 });
    const { jobId } = await check(TOOL.startBulk, { csv, occasion: "holiday" });
    await check(TOOL.waitForJob, { jobId, timeoutMs: 20_000 });
    await check(TOOL.getJobEvents, { jobId });
    await check(TOOL.getJobResult, { jobId });
    await check(TOOL.getJobTable, { jobId });
    await check(TOOL.listJobs, {});
    await check(TOOL.showJob, { jobId });
    await check(TOOL.claimFollowUp, { jobId });
    await check(FILE_TOOL.exportResult, { jobId, format: "xlsx", inline: true });
    await check(TOOL.cancelJob, { jobId });
    await check(TOOL.deleteJob, { jobId });
    await check(TOOL.getJobResult, { jobId });
    const bytes = Buffer.from(csv);
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const { uploadId } = await check(FILE_TOOL.beginUpload, { name: "staff.csv", size: bytes.length, sha256 });
    await check(FILE_TOOL.putChunk, { uploadId, index: 0, data: bytes.toString("base64") });
    await check(FILE_TOOL.preview, { uploadId });
    await check(FILE_TOOL.dropUpload, { uploadId });
    await check(FILE_TOOL.preview, { uploadId });
    expect([...checked].sort()).toEqual(tools.map((tool) => tool.name).sort());
  });
});
