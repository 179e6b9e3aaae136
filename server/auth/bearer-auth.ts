/**
 * The sign-in check in front of /mcp (an OAuth 2.1 protected resource, per the MCP authorization spec):
 * jose checks signature, issuer, audience and expiry, then scopes and a `sub` that names someone. No valid
 * token: 401 with a challenge naming the RFC 9728 metadata; missing scopes 403; no provider 503.
 */
import { ProtocolErrorCode, type AuthInfo } from "@modelcontextprotocol/server";
import { errors, jwtVerify, type JWTPayload } from "jose";
import { jsonRpcError, retryLater } from "../json-rpc-error.js";
import { createOutageLog } from "../observability/outage-log.js";
import { resourceOf, type AuthOptions } from "./auth-options.js";
import { createProviderKeys, ProviderFault } from "./provider-metadata.js";
import { subjectFor } from "./subject.js";

export type BearerAuth = ReturnType<typeof createBearerAuth>;

type Checked = { auth: AuthInfo } | { refusal: Response };

const quoted = (value: string) => `"${value.replace(/["\\]/g, "")}"`;

const RETRY_AFTER_SECONDS = 5;

function scopesOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === "string") return payload.scope.split(" ").filter(Boolean);
  if (Array.isArray(payload.scp)) return payload.scp.filter((s): s is string => typeof s === "string");
  return [];
}

/** `onError` hears unexpected errors, and the authorization server's outages as one-line strings. */
export function createBearerAuth(options: AuthOptions, onError: (error: unknown) => void = () => {}) {
  const resource = resourceOf(options);
  const provider = createOutageLog({ dependency: `Sign-in provider ${options.issuer}`, print: onError });
  const keys = createProviderKeys(options.issuer, provider.part("token checks"));
  const challenge = (error?: string, description?: string) => {
    const params = [
      error && `error=${quoted(error)}`,
      description && `error_description=${quoted(description)}`,
      `resource_metadata=${quoted(`${options.publicUrl}/.well-known/oauth-protected-resource`)}`,
      options.scopes.length > 0 && `scope=${quoted(options.scopes.join(" "))}`,
    ].filter(Boolean);
    return `Bearer ${params.join(", ")}`;
  };
  const refuse = (status: number, message: string, error?: string, description?: string): Checked => {
    const response = jsonRpcError(status, ProtocolErrorCode.InvalidRequest, message);
    response.headers.set("www-authenticate", challenge(error, description));
    return { refusal: response };
  };
  const invalid = (description: string) =>
    refuse(401, `Unauthorized: ${description} Sign in again to get a new token.`, "invalid_token", description);

  return {
    challenge,
    metadata: {
      resource,
      authorization_servers: [options.issuer],
      scopes_supported: options.scopes,
      bearer_methods_supported: ["header"],
      resource_name: "GiftGenius",
    },
    /** The caller's verified token, or the refusal to send back. */
    async check(authorization: string | null | undefined): Promise<Checked> {
      const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(authorization ?? "");
      if (!match) {
        return refuse(
          401,
          "Unauthorized: sign in first. Send an OAuth access token as `Authorization: Bearer <token>`; " +
            "the WWW-Authenticate header says where to get one.",
        );
      }
      const token = match[1];
      let payload: JWTPayload;
      try {
        // the issuer is compared as the metadata names it, which the metadata lookup holds to options.issuer
        ({ payload } = await jwtVerify(token, keys, {
          issuer: options.issuer,
          audience: resource,
          requiredClaims: ["sub", "exp"],
        }));
      } catch (error) {
        if (error instanceof errors.JOSEError) return invalid(describe(error));
        if (!(error instanceof ProviderFault)) onError(error);
        const message = "The authorization server could not be reached to check the token. Try again in a moment.";
        return { refusal: retryLater(503, message, RETRY_AFTER_SECONDS) };
      }
      // a number, an object or "" names no one: taken as a name, all such tokens would be one user
      if (typeof payload.sub !== "string" || payload.sub === "") {
        return invalid("The token's sub claim is not a non-empty string, so it names no user.");
      }
      const scopes = scopesOf(payload);
      const missing = options.scopes.filter((s) => !scopes.includes(s));
      if (missing.length > 0) {
        const description = `The token lacks the scope(s) ${missing.join(" ")}.`;
        return refuse(
          403,
          `Forbidden: ${description} Sign in again granting the scope(s) ${options.scopes.join(" ")}.`,
          "insufficient_scope",
          description,
        );
      }
      const clientId = [payload.client_id, payload.azp].find((id): id is string => typeof id === "string") ?? "";
      // the SDK's `AuthInfo`, with the subject (subject.ts) in `extra.subject`
      const extra = { sub: payload.sub, subject: subjectFor(options.issuer, payload.sub) };
      return { auth: { token, clientId, scopes, expiresAt: payload.exp, resource: new URL(resource), extra } };
    },
  };
}

function describe(error: errors.JOSEError): string {
  if (error instanceof errors.JWTExpired) return "The token has expired.";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return "The token was not issued for this server.";
    if (error.claim === "iss") return "The token was not issued by this server's authorization server.";
    if (error.reason === "missing") return `The token has no ${error.claim} claim.`;
    return `The token's ${error.claim} claim is not valid.`;
  }
  return "The token is not a valid signed token from this server's authorization server.";
}
