/**
 * The configuration: defaults, the one line that refuses a value that cannot work, what is derived
 * (sign-in, allowed hosts, the harness), and the configuration table of docs/operations.md held to the schema:
 * the same variables, and the same defaults where the table states one.
 */
import { readFileSync } from "node:fs";
import { EnvSchema, readConfig } from "./config.js";

describe("the configuration", () => {
  it("gives every default when nothing is set, in a frozen object", () => {
    const config = readConfig({});
    expect(config).toMatchObject({
      port: 8787,
      host: "127.0.0.1",
      store: "sqlite",
      dataDir: "./data",
      redis: { url: "redis://127.0.0.1:6379", keyPrefix: "giftgenius:" },
      workers: { concurrency: 4, lockMs: 30_000, stalledCheckMs: 30_000, graceMs: 60_000 },
      limits: { retentionMs: 24 * 60 * 60 * 1000, maxUnfinishedPerSubject: 10, maxStartsPerHour: 100 },
      auth: undefined,
      allowedOrigins: [],
      allowedHosts: [],
      sessions: { max: 10_000, minIdleMs: 60_000, maxPerSubject: undefined },
      maxConnections: undefined,
      instanceId: undefined,
      fileDownloadHosts: [],
      development: false,
      serveHarness: false,
      log: { level: "info", format: "json" },
      metrics: undefined,
      drainMs: 0,
    });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.redis)).toBe(true);
    expect(Object.isFrozen(config.allowedHosts)).toBe(true);
  });

  it("reads what is set, and takes an empty variable as unset", () => {
    const config = readConfig({
      PORT: "0",
      WORKERS: "0",
      RETENTION_HOURS: "0.5",
      STORE: "",
      QUOTA_STORED_MB: "1",
      INSTANCE_ID: "web-2",
    });
    expect(config).toMatchObject({ port: 0, store: "sqlite", workers: { concurrency: 0 }, instanceId: "web-2" });
    expect(config.limits).toMatchObject({ retentionMs: 30 * 60 * 1000, maxStoredBytesPerSubject: 1024 * 1024 });
  });

  it.each([
    ["PORT", "http", "PORT=http is not a port: a whole number from 0 to 65535."],
    ["PORT", "70000", "PORT=70000 is not a port: a whole number from 0 to 65535."],
    ["STORE", "postgres", "STORE=postgres is not a store: use sqlite (the default), memory or redis."],
    ["REDIS_URL", "localhost:6379", "REDIS_URL=localhost:6379 is not a redis:// or rediss:// URL."],
    ["WORKERS", "-1", "WORKERS=-1 is not a whole number of 0 or more."],
    ["WORKERS", "2.5", "WORKERS=2.5 is not a whole number of 0 or more."],
    ["MAX_SESSIONS", "0", "MAX_SESSIONS=0 is not a whole number of at least 1."],
    ["MAX_SESSIONS", "many", "MAX_SESSIONS=many is not a whole number of at least 1."],
    ["RETENTION_HOURS", "0", "RETENTION_HOURS=0 is not a positive number."],
    ["RETENTION_HOURS", "NaN", "RETENTION_HOURS=NaN is not a positive number."],
    ["AUTH_ISSUER", "issuer.example", "AUTH_ISSUER=issuer.example is not a URL."],
    ["PUBLIC_URL", "gifts.example", "PUBLIC_URL=gifts.example is not a URL."],
    ["INSTANCE_ID", "a.b", "INSTANCE_ID=a.b is not an instance tag: 1 to 32 letters, digits, - or _."],
    [
      "FILE_DOWNLOAD_HOSTS",
      "files.example.com, http://x.test",
      "FILE_DOWNLOAD_HOSTS=files.example.com, http://x.test is not a list of host names such as " +
        "files.example.com or *.example.com, or origins such as https://files.example.com:8443 (http only on " +
        "loopback), separated by commas.",
    ],
    ["GIFTGENIUS_DEV", "yes", "GIFTGENIUS_DEV=yes is not 1 (on) or 0 (off)."],
    ["SERVE_HARNESS", "true", "SERVE_HARNESS=true is not 1 (on) or 0 (off)."],
    ["LOG_LEVEL", "loud", "LOG_LEVEL=loud is not a log level: fatal, error, warn, info, debug, trace, silent."],
    ["LOG_FORMAT", "xml", "LOG_FORMAT=xml is not a log format: json or pretty."],
    ["METRICS_PORT", "-1", "METRICS_PORT=-1 is not a port: a whole number from 0 to 65535."],
    ["DRAIN_SECONDS", "-2", "DRAIN_SECONDS=-2 is not a number of seconds of 0 or more."],
  ])("refuses %s=%s in one line naming it and what it takes", (name, value, line) => {
    expect(() => readConfig({ [name]: value })).toThrow(new Error(line));
  });

  it("never prints a secret it refuses, only its length", () => {
    expect(() => readConfig({ FILE_LINK_SECRET: "hunter2" })).toThrow(
      new Error(
        "FILE_LINK_SECRET (7 characters) is not long enough to sign download links: it needs at least 32 " +
          "characters (e.g. the output of `openssl rand -base64 32`).",
      ),
    );
    expect(readConfig({ FILE_LINK_SECRET: "s".repeat(32) }).fileLinkSecret).toBe("s".repeat(32));
  });

  it("turns sign-in on with AUTH_ISSUER, which needs PUBLIC_URL", () => {
    expect(() => readConfig({ AUTH_ISSUER: "https://issuer.example" })).toThrow(
      new Error("AUTH_ISSUER is set but PUBLIC_URL is not: set PUBLIC_URL to this server's public base URL."),
    );
    const base = { AUTH_ISSUER: " https://issuer.example/ ", PUBLIC_URL: "https://gifts.example/" };
    // the issuer exactly as written (its metadata is checked against it at start), the base URL without its slash
    expect(readConfig(base).auth).toEqual({
      issuer: "https://issuer.example/",
      publicUrl: "https://gifts.example",
      scopes: ["gifts"],
    });
    expect(readConfig({ ...base, AUTH_SCOPES: "gifts.read, gifts.write admin" }).auth?.scopes).toEqual([
      "gifts.read",
      "gifts.write",
      "admin",
    ]);
    expect(readConfig({ ...base, AUTH_SCOPES: " , " }).auth?.scopes).toEqual(["gifts"]);
  });

  it("answers to ALLOWED_HOSTS and PUBLIC_URL's host, or to any host when bound wide with neither", () => {
    const hosts = (env: Record<string, string>) => readConfig(env).allowedHosts;
    expect(hosts({ ALLOWED_HOSTS: "a.example, B.example:8443", PUBLIC_URL: "https://gifts.example" })).toEqual([
      "a.example",
      "b.example",
      "gifts.example",
    ]);
    expect(hosts({ HOST: "0.0.0.0" })).toBe("any");
    expect(hosts({ HOST: "0.0.0.0", PUBLIC_URL: "https://gifts.example" })).toEqual(["gifts.example"]);
    expect(hosts({ HOST: "::1" })).toEqual([]);
  });

  it("serves the harness in development or when SERVE_HARNESS asks for it", () => {
    expect(readConfig({ GIFTGENIUS_DEV: "1" })).toMatchObject({ development: true, serveHarness: true });
    expect(readConfig({ SERVE_HARNESS: "1" })).toMatchObject({ development: false, serveHarness: true });
    expect(readConfig({ GIFTGENIUS_DEV: "0", SERVE_HARNESS: "0" })).toMatchObject({ serveHarness: false });
  });
});

describe("the configuration of logs, metrics and the drain", () => {
  it("logs readable lines in development unless LOG_FORMAT says otherwise, and serves metrics where METRICS_PORT says", () => {
    expect(readConfig({ GIFTGENIUS_DEV: "1" }).log).toEqual({ level: "info", format: "pretty" });
    expect(readConfig({ GIFTGENIUS_DEV: "1", LOG_FORMAT: "json", LOG_LEVEL: "debug" }).log).toEqual({
      level: "debug",
      format: "json",
    });
    expect(readConfig({ METRICS_PORT: "9464" }).metrics).toEqual({ host: "127.0.0.1", port: 9464 });
    expect(readConfig({ METRICS_PORT: "0", METRICS_HOST: "0.0.0.0", DRAIN_SECONDS: "2.5" })).toMatchObject({
      metrics: { host: "0.0.0.0", port: 0 },
      drainMs: 2500,
    });
  });
});

/** The configuration table of docs/operations.md: each variable with the default its row states, if a plain one. */
function documentedTable(): Map<string, string | undefined> {
  const page = readFileSync(new URL("../docs/operations.md", import.meta.url), "utf8");
  const section = page.split("## Configuration (environment)")[1].split(/\n#/)[0];
  const rows = new Map<string, string | undefined>();
  for (const line of section.split("\n").filter((l) => l.startsWith("| `"))) {
    const [names, defaults] = line.split("|").slice(1, 3);
    const variables = [...names.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]);
    // a default is stated when the cell is only code spans, one per variable: `30000`, `60000`
    const plain = /^`[^`]*`(, `[^`]*`)*$/.test(defaults.trim());
    const values = plain ? [...defaults.matchAll(/`([^`]*)`/g)].map((m) => m[1]) : [];
    if (plain) expect(values, line).toHaveLength(variables.length);
    variables.forEach((name, i) => rows.set(name, values[i]));
  }
  return rows;
}

describe("the configuration table in docs/operations.md", () => {
  const table = documentedTable();
  const schema = Object.keys(EnvSchema.shape);
  const defaults = EnvSchema.parse(Object.fromEntries(schema.map((name) => [name, undefined])));

  it("names every variable the configuration reads, and no other", () => {
    expect([...table.keys()].sort()).toEqual([...schema].sort());
  });

  it.each([...table].filter(([, value]) => value !== undefined))("states %s's default, %s", (name, value) => {
    expect(String(defaults[name as keyof typeof defaults])).toBe(value);
  });
});
