/**
 * Sign-in settings: the authorization server that issues tokens, this server's public URL (its
 * resource identifier is `${publicUrl}/mcp`) and the scopes a token needs. Read from the
 * environment by `readAuthOptions`; sign-in is off when AUTH_ISSUER is unset.
 */

export type AuthOptions = {
  /** The authorization server's issuer URL, exactly as its metadata states it. */
  issuer: string;
  /** This server's public base URL, e.g. https://gifts.example.com (no trailing slash). */
  publicUrl: string;
  /** Scopes every token must carry. */
  scopes: string[];
};

const DEFAULT_SCOPES = ["gifts"];

/** The resource identifier (RFC 8707) tokens must be issued for: the MCP endpoint. */
export const resourceOf = (options: AuthOptions): string => `${options.publicUrl}/mcp`;

/** Where the protected-resource metadata (RFC 9728) is served. */
export const resourceMetadataUrl = (options: AuthOptions): string =>
  `${options.publicUrl}/.well-known/oauth-protected-resource`;

/**
 * AUTH_ISSUER, PUBLIC_URL, AUTH_SCOPES (space or comma separated) into options, or undefined when
 * sign-in is off. Throws with a sentence naming the variable when the settings cannot work.
 */
export function readAuthOptions(env: Record<string, string | undefined>): AuthOptions | undefined {
  const issuer = env.AUTH_ISSUER?.trim();
  if (!issuer) return undefined;
  const publicUrl = env.PUBLIC_URL?.trim().replace(/\/+$/, "");
  if (!publicUrl) {
    throw new Error("AUTH_ISSUER is set but PUBLIC_URL is not: set PUBLIC_URL to this server's public base URL.");
  }
  for (const [name, value] of [
    ["AUTH_ISSUER", issuer],
    ["PUBLIC_URL", publicUrl],
  ]) {
    if (!URL.canParse(value)) throw new Error(`${name}=${value} is not a URL.`);
  }
  const scopes = (env.AUTH_SCOPES ?? "").split(/[\s,]+/).filter(Boolean);
  return { issuer, publicUrl, scopes: scopes.length > 0 ? scopes : DEFAULT_SCOPES };
}
