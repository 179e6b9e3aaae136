/** Sign-in settings (AUTH_ISSUER, PUBLIC_URL, AUTH_SCOPES); sign-in is off when AUTH_ISSUER is unset. */

export type AuthOptions = {
  /** The authorization server's issuer URL, exactly as its metadata states it. */
  issuer: string;
  /** e.g. https://gifts.example.com (no trailing slash). */
  publicUrl: string;
  /** Scopes every token must carry. */
  scopes: string[];
};

/** The resource identifier (RFC 8707) tokens must be issued for: the MCP endpoint. */
export const resourceOf = (options: AuthOptions): string => `${options.publicUrl}/mcp`;
