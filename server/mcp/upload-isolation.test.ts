/**
 * Another subject's upload, with two real signed-in subjects: Bob holding Alice's upload id gets
 * exactly the answer a missing id gets, on every path (chunks, preview, start), and the same file
 * begun by him is an upload of his own; Alice's upload is untouched by all he tried.
 */
import { createHash } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { FILE_TOOL, StaffPreviewSchema, UploadStateSchema } from "../../shared/files.js";
import { TOOL } from "../../shared/tools.js";
import { startTestProvider, type TestProvider } from "../../test-kit/servers/oidc-provider.js";
import { callTool, startTestServer, toolError, type TestServer } from "../../test-kit/servers/test-server.js";

const RESOURCE = "https://gifts.example.test/mcp";
let provider: TestProvider;
let server: TestServer;
const clients: Record<"alice" | "bob", Client> = {} as never;

beforeAll(async () => {
  provider = await startTestProvider();
  server = await startTestServer({
    auth: { issuer: provider.issuer, publicUrl: "https://gifts.example.test", scopes: ["gifts"] },
  });
  for (const who of ["alice", "bob"] as const) {
    const token = await provider.signIn(who, { resource: RESOURCE });
    clients[who] = new Client({ name: `test-${who}`, version: "1.0.0" });
    await clients[who].connect(
      new StreamableHTTPClientTransport(server.mcpUrl, {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
  }
});
afterAll(async () => {
  for (const c of Object.values(clients)) await c?.close();
  await server?.close();
  await provider?.close();
});

const bytes = Buffer.from("name,department,interests\nAda,R&D,coffee\nGrace,Navy,books\n");
const announced = { name: "team.csv", size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };

it("answers another subject's upload id exactly as a missing one, on every path", async () => {
  const begun = UploadStateSchema.parse(
    (await callTool(clients.alice, FILE_TOOL.beginUpload, announced)).structuredContent,
  );
  const data = bytes.toString("base64");
  const { uploadId } = begun;
  const missing = "upl_AAAAAAAAAAAAAAAAAAAAAA";
  const calls = (id: string) =>
    [
      [FILE_TOOL.putChunk, { uploadId: id, index: 0, data }],
      [FILE_TOOL.preview, { uploadId: id }],
      [TOOL.startBulk, { uploadId: id, occasion: "o", budgetPerPerson: 40 }],
    ] as const;
  for (const [[name, args], [, missingArgs]] of calls(uploadId).map((c, i) => [c, calls(missing)[i]] as const)) {
    const bobs = toolError(await callTool(clients.bob, name, args));
    const none = toolError(await callTool(clients.bob, name, missingArgs));
    expect(bobs).toEqual({ ...none, message: none.message.replace(missing, uploadId) });
  }
  // Bob cannot drop it: the same answer as for an upload that does not exist
  expect((await callTool(clients.bob, FILE_TOOL.dropUpload, { uploadId })).structuredContent).toEqual({
    uploadId,
    dropped: false,
  });
  // the same file begun by Bob is his own upload
  const his = UploadStateSchema.parse(
    (await callTool(clients.bob, FILE_TOOL.beginUpload, announced)).structuredContent,
  );
  expect(his.uploadId).not.toBe(uploadId);
  // and Alice's is as she left it: no chunk of Bob's reached it
  const hers = UploadStateSchema.parse(
    (await callTool(clients.alice, FILE_TOOL.beginUpload, announced)).structuredContent,
  );
  expect(hers).toMatchObject({ uploadId, received: [] });
  await callTool(clients.alice, FILE_TOOL.putChunk, { uploadId, index: 0, data });
  const preview = StaffPreviewSchema.parse(
    (await callTool(clients.alice, FILE_TOOL.preview, { uploadId })).structuredContent,
  );
  expect(preview.people).toBe(2);
});
