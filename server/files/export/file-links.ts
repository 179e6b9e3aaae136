/**
 * Expiring download links: `/files/<token>`, the token base64url(JSON claims) "." base64url(their HMAC-SHA256).
 * The file is written when the link is followed, through the access gate. The key is FILE_LINK_SECRET when set;
 * otherwise, with STORE=redis, a random key the first instance writes into that Redis and every other reads (they
 * already share all a link unlocks, the results, so it exposes nothing new); with one process, its own.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import * as z from "zod/mini";
import { EXPORT_FORMATS } from "../../../shared/files.js";
import type { Config } from "../../config.js";
import { openRedis, watchConnection } from "../../redis/connection.js";

export const LINK_TTL_MS = 15 * 60 * 1000;
/** Longer tokens are not ours; they are refused before any work. */
const MAX_TOKEN_CHARS = 2048;

const ClaimsSchema = z.object({
  jobId: z.string(),
  subject: z.string(),
  format: z.enum(EXPORT_FORMATS),
  part: z.enum(["picks", "skipped"]),
  exp: z.number(),
});
type LinkClaims = z.infer<typeof ClaimsSchema>;

type Verified = { ok: true; claims: LinkClaims } | { ok: false; why: "expired" | "invalid" };

export type FileLinks = {
  /**
   * A link on `origin` (PUBLIC_URL wins). The file's name ends the path, for hosts that name a download
   * after its URL; the token alone decides what is served.
   */
  issue(
    claims: Omit<LinkClaims, "exp">,
    origin: string | undefined,
    fileName: string,
  ): Promise<{ url: string; expiresAt: number }>;
  verify(token: string): Promise<Verified>;
};

export type FileLinkOptions = {
  /** The HMAC key, the same on every instance (`fileLinksFromConfig`); by default random, this process's own. */
  secret?: () => Promise<Uint8Array>;
  /** PUBLIC_URL: links point there rather than at the request's origin. */
  publicUrl?: string;
  now?: () => number;
};

const sign = (key: Uint8Array, text: string): Buffer => createHmac("sha256", key).update(text).digest();

export function createFileLinks({ secret, publicUrl, now = Date.now }: FileLinkOptions = {}): FileLinks {
  const own = randomBytes(32);
  const key = secret ?? (async () => own);
  const base = publicUrl?.replace(/\/+$/, "");
  return {
    async issue(claims, origin, fileName) {
      const from = base ?? origin;
      if (from === undefined)
        throw new Error("the request's origin is unknown: set PUBLIC_URL so links can name this server");
      const full: LinkClaims = { ...claims, exp: now() + LINK_TTL_MS };
      const body = Buffer.from(JSON.stringify(full)).toString("base64url");
      const token = `${body}.${sign(await key(), body).toString("base64url")}`;
      return { url: `${from}/files/${token}/${encodeURIComponent(fileName)}`, expiresAt: full.exp };
    },
    async verify(token) {
      const invalid = { ok: false, why: "invalid" } as const;
      const [body, signature, extra] = token.length <= MAX_TOKEN_CHARS ? token.split(".") : [];
      if (body === undefined || signature === undefined || extra !== undefined) return invalid;
      const expected = sign(await key(), body);
      const given = Buffer.from(signature, "base64url");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return invalid;
      try {
        const claims = ClaimsSchema.parse(JSON.parse(Buffer.from(body, "base64url").toString("utf8")));
        return claims.exp > now() ? { ok: true, claims } : { ok: false, why: "expired" };
      } catch {
        return invalid; // signed by us, so never; but a key shared with something else might
      }
    },
  };
}

export function fileLinksFromConfig(config: Config): FileLinkOptions {
  const { publicUrl, fileLinkSecret } = config;
  if (fileLinkSecret) return { publicUrl, secret: async () => Buffer.from(fileLinkSecret, "utf8") };
  if (config.store !== "redis") return { publicUrl };
  // the Redis that jobs-env.ts opens for the job store
  return { publicUrl, secret: secretInRedis(config.redis.url, `${config.redis.keyPrefix}file-link-secret`) };
}

/** The key at `key` in the Redis at `url`, written first if none is; read once per process (retried on failure). */
export function secretInRedis(url: string, key: string): () => Promise<Uint8Array> {
  let found: Promise<Uint8Array> | undefined;
  return () =>
    (found ??= readOrCreate(url, key).catch((error: unknown) => {
      found = undefined;
      throw error;
    }));
}

async function readOrCreate(url: string, key: string): Promise<Uint8Array> {
  const redis = openRedis(url);
  try {
    return await watchConnection(redis).guard(async () => {
      // of instances starting at once, the first write wins and all read the winner
      await redis.set(key, randomBytes(32).toString("base64"), "NX");
      const value = await redis.get(key);
      if (value === null) throw new Error(`the download-link key ${key} vanished from Redis as it was written`);
      return Buffer.from(value, "base64");
    });
  } finally {
    redis.disconnect();
  }
}
