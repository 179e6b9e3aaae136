/**
 * Expiring download links: `/files/<token>`, the token base64url(JSON claims) "." base64url(their
 * HMAC-SHA256). The file is written when the link is followed, through the access gate.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import * as z from "zod/mini";
import { EXPORT_FORMATS } from "../../../shared/files.js";

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
  /** The HMAC key, the same on every instance (link-secret.ts); by default random, this process's own. */
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
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
      } catch {
        return invalid; // signed by us, so never; but a key shared with something else might
      }
      const claims = ClaimsSchema.safeParse(parsed);
      if (!claims.success) return invalid;
      return claims.data.exp > now() ? { ok: true, claims: claims.data } : { ok: false, why: "expired" };
    },
  };
}
