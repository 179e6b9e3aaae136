/**
 * The issuer compared as its metadata names it (RFC 8414 §3.3), checked once at start-up against the
 * real provider: AUTH_ISSUER with a trailing slash, or a URL with no metadata, ends the start with
 * one line naming what was configured and what the metadata says; a hung provider only warns, within
 * the lookup's deadline; main.ts itself exits with that one line, or starts when all fits.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkIssuer, fetchMetadata, ProviderFault } from "./provider-metadata.js";
import { startHungListener, startTestProvider, type TestProvider } from "../../test-kit/servers/oidc-provider.js";
import { logMessages } from "../../test-kit/observability/log-lines.js";

const PUBLIC_URL = "https://gifts.example.test";

let provider: TestProvider;
beforeAll(async () => {
  provider = await startTestProvider();
});
afterAll(() => provider?.close());

const optionsFor = (issuer: string) => ({ issuer, publicUrl: PUBLIC_URL, scopes: ["gifts"] });

describe("checkIssuer", () => {
  it("passes the issuer exactly as the metadata names it", async () => {
    expect(await checkIssuer(optionsFor(provider.issuer))).toBeUndefined();
    expect((await fetchMetadata(provider.issuer)).href).toBe(`${provider.issuer}/jwks`);
  });

  it("refuses a trailing slash the metadata does not have, naming both", async () => {
    const check = await checkIssuer(optionsFor(`${provider.issuer}/`));
    expect(check).toEqual({
      fatal: true,
      line:
        `AUTH_ISSUER=${provider.issuer}/ is not the issuer its metadata names: ` +
        `${provider.issuer}/.well-known/oauth-authorization-server says "${provider.issuer}". ` +
        `Set AUTH_ISSUER to exactly ${provider.issuer}.`,
    });
  });

  it("refuses a URL where no metadata is found", async () => {
    const check = await checkIssuer(optionsFor(`${provider.issuer}/elsewhere`));
    expect(check?.fatal).toBe(true);
    expect(check?.line).toMatch(
      /^AUTH_ISSUER=\S+\/elsewhere has no metadata \(.*HTTP 404.*\): set it to the issuer's URL\.$/,
    );
  });

  it("only warns when the provider does not answer, once the lookup's deadline has passed", async () => {
    const hung = await startHungListener();
    try {
      const check = await checkIssuer(optionsFor(hung.url), 300);
      expect(check?.fatal).toBe(false);
      expect(check?.line).toMatch(/could not be checked at start \(its metadata at \S+: no answer within 0.3 s\)/);
      await expect(fetchMetadata(hung.url, 300)).rejects.toBeInstanceOf(ProviderFault);
    } finally {
      await hung.close();
    }
  });
});

/** Runs main.ts until it exits or says it listens (then it is stopped): exit code, the messages of its stderr lines, started. */
async function runMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      STORE: "memory",
      DATA_DIR: mkdtempSync(join(tmpdir(), "gg-")),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  let started = false;
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdout.on("data", (chunk: Buffer) => {
    if (!started && chunk.toString().includes("GiftGenius MCP server:")) {
      started = true;
      child.kill("SIGTERM");
    }
  });
  const stop = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearTimeout(stop);
  return { code, started, lines: logMessages(stderr) };
}

describe("the server's start", () => {
  it("exits with 1 and one line when AUTH_ISSUER has a trailing slash its metadata does not", async () => {
    const run = await runMain({ AUTH_ISSUER: `${provider.issuer}/`, PUBLIC_URL });
    expect(run).toEqual({
      code: 1,
      started: false,
      lines: [
        expect.stringMatching(
          new RegExp(
            `^AUTH_ISSUER=${provider.issuer}/ is not the issuer its metadata names: .*Set AUTH_ISSUER to exactly ${provider.issuer}\\.$`,
          ),
        ),
      ],
    });
  });

  it("starts, quietly, with the issuer exactly as its metadata names it", async () => {
    const run = await runMain({ AUTH_ISSUER: provider.issuer, PUBLIC_URL });
    expect(run.started).toBe(true);
    // (other parts may have their say, e.g. on a harness not built)
    expect(run.lines.filter((line) => /AUTH_ISSUER|Sign-in provider/.test(line))).toEqual([]);
  });
});
