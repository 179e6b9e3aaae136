/**
 * The download-link key as the configuration sets it: FILE_LINK_SECRET, or with STORE=redis one key
 * in the real Redis that every instance reads (a unique key prefix per run).
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { deleteKeysUnder, redisUnreachable, redisUrl } from "../../../test-kit/redis.js";
import { createFileLinks, fileLinksFromConfig, secretInRedis } from "./file-links.js";
import { readConfig } from "../../config.js";

const unreachable = await redisUnreachable("the download-link key kept in Redis");
const fileLinksFromEnv = (env: Record<string, string>) => fileLinksFromConfig(readConfig(env));
const CLAIMS = { jobId: "job_abc", subject: "alice", format: "csv", part: "picks" } as const;

describe("the download-link key from the environment", () => {
  it("takes FILE_LINK_SECRET, refusing one too short to sign with, and PUBLIC_URL", async () => {
    expect(() => fileLinksFromEnv({ FILE_LINK_SECRET: "short" })).toThrow(
      "FILE_LINK_SECRET (5 characters) is not long enough to sign download links: it needs at least 32 characters",
    );
    const secret = "s".repeat(32);
    const a = createFileLinks(fileLinksFromEnv({ FILE_LINK_SECRET: secret, STORE: "redis" }));
    const b = createFileLinks(fileLinksFromEnv({ FILE_LINK_SECRET: secret, PUBLIC_URL: "https://g.example" }));
    const issued = await b.issue(CLAIMS, "http://ignored", "a.xlsx");
    expect(issued.url.startsWith("https://g.example/files/")).toBe(true);
    expect((await a.verify(issued.url.split("/files/")[1].split("/")[0])).ok).toBe(true);
    // one process alone: a key of its own
    expect(fileLinksFromEnv({ STORE: "sqlite" }).secret).toBeUndefined();
  });

  describe.skipIf(unreachable)("with STORE=redis", () => {
    const prefix = `giftgenius-test:${randomUUID()}:`;
    const admin = new Redis(redisUrl);
    afterAll(async () => {
      await deleteKeysUnder(admin, prefix);
      admin.disconnect();
    });

    it("gives every instance the key the first one wrote, so a link opens on any of them", async () => {
      const env = { STORE: "redis", REDIS_URL: redisUrl, REDIS_PREFIX: prefix };
      const [one, two] = await Promise.all([fileLinksFromEnv(env).secret!(), fileLinksFromEnv(env).secret!()]);
      expect(Buffer.from(one).equals(Buffer.from(two))).toBe(true);
      expect(one.byteLength).toBe(32);
      expect(await admin.get(`${prefix}file-link-secret`)).toBe(Buffer.from(one).toString("base64"));
      const issued = await createFileLinks(fileLinksFromEnv(env)).issue(CLAIMS, "http://a", "a.xlsx");
      expect(
        (await createFileLinks(fileLinksFromEnv(env)).verify(issued.url.split("/files/")[1].split("/")[0])).ok,
      ).toBe(true);
      // another deployment (prefix) has a key of its own
      const other = await secretInRedis(redisUrl, `${prefix}other:file-link-secret`)();
      expect(Buffer.from(other).equals(Buffer.from(one))).toBe(false);
    });

    it("fails while Redis cannot be reached, and asks it again at the next call", async () => {
      const read = secretInRedis("redis://127.0.0.1:1", `${prefix}file-link-secret`);
      const first = read();
      await expect(first).rejects.toThrow(/unreachable/);
      const second = read();
      expect(second).not.toBe(first); // the failure is not kept as the answer
      await expect(second).rejects.toThrow(/unreachable/);
    });
  });
});
