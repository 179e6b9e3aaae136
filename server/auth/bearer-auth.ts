/**
 * The sign-in check in front of /mcp (an OAuth 2.1 protected resource, per the MCP authorization
 * spec): no valid token gets 401 with a `WWW-Authenticate` challenge naming the RFC 9728 metadata;
 * missing scopes 403 `insufficient_scope`; an unreachable authorization server 503 `Retry-After`.
 */
import { ProtocolErrorCode, type AuthInfo } from "@modelcontextprotocol/server";
import { jsonRpcError, retryLater } from "../json-rpc-error.js";
import { resourceMetadataUrl, resourceOf, type AuthOptions } from "./auth-options.js";
import { createTokenVerifier } from "./verify-token.js";

export type BearerAuth = ReturnType<typeof createBearerAuth>;

const quoted = (value: string) => `"${value.replace(/["\\]/g, "")}"`;

const RETRY_AFTER_SECONDS = 5;

/** `onError` hears unexpected errors, and the authorization server's outages as one-line strings. */
export function createBearerAuth(options: AuthOptions, onError?: (error: unknown) => void) {
  const verify = createTokenVerifier(options, onError);
  const challenge = (error?: string, description?: string) => {
    const params = [
      error && `error=${quoted(error)}`,
      description && `error_description=${quoted(description)}`,
      `resource_metadata=${quoted(resourceMetadataUrl(options))}`,
      options.scopes.length > 0 && `scope=${quoted(options.scopes.join(" "))}`,
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
