/**
 * Domain errors of the job tools over real HTTP with the official MCP client: each bad start and
 * each unknown job is a valid result with `isError: true`, a code, and a sentence that names the
 * problem and says what to do; a refused start creates no job at all.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { TOOL } from "../../shared/tools.js";
import {
  callTool,
  connectClient,
  startTestServer,
  toolError,
  toolText,
  type TestServer,
} from "../../test-kit/servers/test-server.js";

let server: TestServer;
let client: Client;
/** Every job the service created while this file ran. */
const created: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  server.jobs.onEvent(({ event }) => event.type === "job.created" && created.push(event.jobId));
  client = await connectClient(server.mcpUrl);
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const base = { occasion: "holiday", budgetPerPerson: 40 };
const UNKNOWN = "job_AAAAAAAAAAAAAAAAAAAAAA";

describe("refused starts", () => {
  it.each([
    [
      "an empty CSV",
      { csv: "" },
      "invalid_csv",
      "The CSV is empty.",
      'Send a header line with the columns "name" (or "full name", "이름") and "interests"',
    ],
    [
      "a CSV with a BOM and blank lines only",
      { csv: "\uFEFF\r\n\r\n" },
      "invalid_csv",
      "The CSV is empty.",
      "Send a header line",
    ],
    [
      "a CSV without the interests column",
      { csv: "name,department,budget\nAda,Engineering,30\n" },
      "invalid_csv",
      'The CSV has no "interests" column: its header has "name", "department", "budget".',
      'The header must name the columns "name" (or "full name", "이름") and "interests"',
    ],
    [
      "a header without rows",
      { csv: "name,department,interests\n" },
      "invalid_csv",
      "The CSV has a header but no employee rows.",
      "Add one line per employee",
    ],
    [
      "both csv and employees",
      { csv: "name,department,interests\nAda,R&D,tea\n", employees: [{ name: "Ada", interests: ["tea"] }] },
      "invalid_arguments",
      "Both csv and employees were given.",
      "Send the staff list once: as file, csv, employees or uploadId.",
    ],
  ])("answers %s with isError and what to fix, and creates no job", async (_, args, code, message, hint) => {
    const result = await callTool(client, TOOL.startBulk, { ...base, ...args });
    const error = toolError(result);
    expect(error.code).toBe(code);
    expect(error.message).toBe(message);
    expect(error.hint).toContain(hint);
    expect(toolText(result)).toBe(`${error.message} ${error.hint}`);
    expect(created).toEqual([]);
  });

  it("answers arguments that break the schema with isError naming the field, and creates no job", async () => {
    const result = await callTool(client, TOOL.startBulk, { ...base, csv: 42, budgetPerPerson: 0 });
    const error = toolError(result);
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain("`csv` must be a string, got a number");
    expect(error.message).toContain("`budgetPerPerson` must be greater than 0");
    expect(created).toEqual([]);
  });
});

describe("an unknown job", () => {
  it.each([
    [TOOL.getJobEvents, { jobId: UNKNOWN, afterSeq: 0, waitMs: 20_000 }],
    [TOOL.getJobResult, { jobId: UNKNOWN, offset: 0, limit: 10 }],
    [TOOL.cancelJob, { jobId: UNKNOWN }],
    [TOOL.waitForJob, { jobId: UNKNOWN, timeoutMs: 20_000 }],
  ])(
    "is answered by %s with isError naming the job and the way on, at once",
    async (name, args) => {
      // waitMs and timeoutMs are long: an unknown job must be refused, not waited on
      const result = await callTool(client, name, args);
      expect(toolError(result)).toEqual({
        code: "unknown_job",
        message: `No job ${UNKNOWN}: it may have expired; start a new analysis with start_bulk_gift_analysis.`,
      });
      expect(toolText(result)).toContain(`No job ${UNKNOWN}`);
      expect(created).toEqual([]);
    },
    10_000,
  );
});

describe("the check that no job was created", () => {
  it("sees a job when a start is accepted", async () => {
    const result = await callTool(client, TOOL.startBulk, {
      ...base,
      employees: [{ name: "Ada", interests: ["tea"] }],
    });
    expect(result.isError).toBeFalsy();
    expect(created).toHaveLength(1);
    await callTool(client, TOOL.waitForJob, { jobId: created[0] });
  });
});
