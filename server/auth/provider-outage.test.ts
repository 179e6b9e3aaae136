/**
 * The sign-in provider as a dependency with deadlines: hung at its metadata (a TCP listener that
 * accepts and never writes, or the real provider holding every request) or at its keys, a request
 * with a token gets 503 with Retry-After within 5 s, not minutes later; the log tells the outage in
 * one line when it is lost, none while it lasts, one when it is back, and never a stack.
 */
import { startTestServer, type TestServer } from "../../test-kit/servers/test-server.js";
import { startHungListener, startTestProvider, type TestProvider } from "../../test-kit/servers/oidc-provider.js";

const PUBLIC_URL = "https://gifts.example.test";
const RESOURCE = `${PUBLIC_URL}/mcp`;
/** The bound: with the provider hung, a request with a token is answered within 5 s. */
const ANSWER_WITHIN_MS = 5000;

let provider: TestProvider;
let token: string;

beforeAll(async () => {
  provider = await startTestProvider();
  token = await provider.signIn("alice", { resource: RESOURCE });
});
afterAll(() => provider?.close());
afterEach(() => provider.hang("nothing"));

/** A signed-in server for `issuer`, with what its log heard. */
async function serverFor(issuer: string): Promise<{ server: TestServer; heard: unknown[] }> {
  const heard: unknown[] = [];
  const server = await startTestServer({
    auth: { issuer, publicUrl: PUBLIC_URL, scopes: ["gifts"] },
    onError: (error) => heard.push(error),
  });
  return { server, heard };
}

/** `tools/list` with the token, given up on (failing the test) past the bound. */
const listTools = (server: TestServer) =>
  fetch(server.mcpUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
  });

async function expectUnavailable(response: Response) {
  expect(response.status).toBe(503);
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  const body = await response.json();
  expect(body).toMatchObject({ jsonrpc: "2.0", error: { message: expect.stringMatching(/could not be reached/) } });
}

const expectOneLineEach = (heard: unknown[]) => {
  for (const line of heard) {
    expect(typeof line).toBe("string");
    expect(line).not.toMatch(/\n/);
  }
};

describe("a sign-in provider that accepts connections and never answers", () => {
  it("answers a request with a token 503 with Retry-After, in time, and tells it in one line", async () => {
    const hung = await startHungListener();
    const { server, heard } = await serverFor(hung.url);
    try {
      await expectUnavailable(await listTools(server));
      await expectUnavailable(await listTools(server));
      expectOneLineEach(heard);
      expect(heard).toEqual([
        expect.stringMatching(
          new RegExp(
            `^Sign-in provider ${hung.url} is unreachable for token checks \\(its metadata at ${hung.url}/\\.well-known/\\S+: no answer within 2 s\\); retrying`,
          ),
        ),
      ]);
    } finally {
      await server.close();
      await hung.close();
    }
  });
});

describe("the real provider hung", () => {
  it.each(["everything", "keys"] as const)(
    "at %s: 503 in time, one line when lost, none while it lasts, one when back",
    async (part) => {
      const { server, heard } = await serverFor(provider.issuer);
      try {
        provider.hang(part);
        await expectUnavailable(await listTools(server));
        await expectUnavailable(await listTools(server));
        expect(heard).toHaveLength(1);
        expect(heard[0]).toMatch(
          part === "keys"
            ? /for token checks \(its keys at \S+\/jwks: no answer within 2 s\)/
            : /for token checks \(its metadata/,
        );
        provider.hang("nothing");
        const back = await listTools(server);
        expect(back.status).toBe(200);
        await back.body?.cancel();
        expect((await listTools(server)).status).toBe(200);
        expectOneLineEach(heard);
        expect(heard).toHaveLength(2);
        expect(heard[1]).toMatch(
          new RegExp(`^Sign-in provider ${provider.issuer} is reachable again, after \\d+ s\\.$`),
        );
      } finally {
        await server.close();
      }
    },
  );
});
