/**
 * The sign-in check in front of /mcp (an OAuth 2.1 protected resource, as the MCP authorization spec
 * asks): a request without a valid bearer token gets 401 with a `WWW-Authenticate` challenge that
 * points at the protected-resource metadata; a token without the needed scopes gets 403
 * `insufficient_scope`; while the authorization server cannot be reached to check a token, 503 with
 * `Retry-After`. The metadata (RFC 9728) itself is served by `resourceMetadata`.
 */
import { ProtocolErrorCode, type AuthInfo } from "@modelcontextprotocol/server";
import { jsonRpcError, retryLater } from "../json-rpc-error.js";
import { resourceMetadataUrl, resourceOf, type AuthOptions } from "./auth-options.js";
import { createTokenVerifier } from "./verify-token.js";

export type BearerAuth = ReturnType<typeof createBearerAuth>;

const quoted = (value: string) => `"${value.replace(/["\\]/g, "")}"`;

/** Seconds a caller is asked to wait while the authorization server is out. */
const RETRY_AFTER_SECONDS = 5;

/** `onError` hears unexpected errors, and the authorization server's outages as one-line strings. */
export function createBearerAuth(options: AuthOptions, onError?: (error: unknown) => void) {
  const verify = createTokenVerifier(options, onError);
  /** The `WWW-Authenticate` value for a call refused for want of a token or scope. */
  const challenge = (error?: string, description?: string, scopes = options.scopes) => {
    const params = [
      error && `error=${quoted(error)}`,
      description && `error_description=${quoted(description)}`,
      `resource_metadata=${quoted(resourceMetadataUrl(options))}`,
      scopes.length > 0 && `scope=${quoted(scopes.join(" "))}`,
    ].filter(Boolean);
    return `Bearer ${params.join(", ")}`;
  };
  const refuse = (status: number, message: string, header?: string) => {
    const response = jsonRpcError(status, ProtocolErrorCode.InvalidRequest, message);
    if (header) response.headers.set("www-authenticate", header);
    return { refusal: response };
  };

  return {
    challenge,
    /** The RFC 9728 metadata document. */
    metadata: {
      resource: resourceOf(options),
      authorization_servers: [options.issuer],
      scopes_supported: options.scopes,
      bearer_methods_supported: ["header"],
      resource_name: "GiftGenius",
    },
    /** The caller's verified token, or the refusal to send back. */
    async check(authorization: string | null | undefined): Promise<{ auth: AuthInfo } | { refusal: Response }> {
      const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(authorization ?? "");
      if (!match) {
        return refuse(
          401,
          "Unauthorized: sign in first. Send an OAuth access token as `Authorization: Bearer <token>`; " +
            "the WWW-Authenticate header says where to get one.",
          challenge(),
        );
      }
      const result = await verify(match[1]);
      if (result.ok) return { auth: result.auth };
      switch (result.problem) {
        case "invalid_token":
          return refuse(
            401,
            `Unauthorized: ${result.description} Sign in again to get a new token.`,
            challenge("invalid_token", result.description),
          );
        case "insufficient_scope":
          return refuse(
            403,
            `Forbidden: ${result.description} Sign in again granting the scope(s) ${options.scopes.join(" ")}.`,
            challenge("insufficient_scope", result.description),
          );
        case "unavailable":
          return { refusal: retryLater(503, result.description, RETRY_AFTER_SECONDS) };
      }
    },
  };
}
