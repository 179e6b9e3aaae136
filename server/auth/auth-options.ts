/**
 * Sign-in settings: the authorization server that issues tokens, this server's public URL (its
 * resource identifier is `${publicUrl}/mcp`) and the scopes a token needs. The configuration
 * (config.ts) reads them from AUTH_ISSUER, PUBLIC_URL and AUTH_SCOPES; sign-in is off when
 * AUTH_ISSUER is unset.
 */

export type AuthOptions = {
  /** The authorization server's issuer URL, exactly as its metadata states it. */
  issuer: string;
  /** This server's public base URL, e.g. https://gifts.example.com (no trailing slash). */
  publicUrl: string;
  /** Scopes every token must carry. */
  scopes: string[];
};

/** The resource identifier (RFC 8707) tokens must be issued for: the MCP endpoint. */
export const resourceOf = (options: AuthOptions): string => `${options.publicUrl}/mcp`;

/** Where the protected-resource metadata (RFC 9728) is served. */
export const resourceMetadataUrl = (options: AuthOptions): string =>
  `${options.publicUrl}/.well-known/oauth-protected-resource`;
