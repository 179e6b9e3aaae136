/**
 * Verifies bearer tokens with jose: the authorization server's `jwks_uri` is discovered from its
 * metadata once, then each JWT's signature, issuer, audience (this server's resource), expiry and
 * scopes are checked. A verified token becomes the SDK's `AuthInfo`, with the subject in `extra.sub`.
 */
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from "jose";
import { resourceOf, type AuthOptions } from "./auth-options.js";

type TokenCheck =
  | { ok: true; auth: AuthInfo }
  | { ok: false; problem: "invalid_token" | "insufficient_scope" | "unavailable"; description: string };

export type TokenVerifier = (token: string) => Promise<TokenCheck>;

/** RFC 8414 and OpenID Connect discovery locations for an issuer, in the order tried. */
function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, "");
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

async function discoverJwksUri(issuer: string): Promise<URL> {
  const failures: string[] = [];
  for (const url of metadataUrls(issuer)) {
    let response: Response;
    try {
      response = await fetch(url, { headers: { accept: "application/json" } });
    } catch (error) {
      failures.push(`${url}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      failures.push(`${url}: HTTP ${response.status}`);
      continue;
    }
    const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (metadata.issuer !== issuer) throw new Error(`${url} names issuer ${String(metadata.issuer)}, not ${issuer}`);
    if (typeof metadata.jwks_uri !== "string") throw new Error(`${url} has no jwks_uri`);
    return new URL(metadata.jwks_uri);
  }
  throw new Error(`no metadata for issuer ${issuer} (${failures.join("; ")})`);
}

function scopesOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === "string") return payload.scope.split(" ").filter(Boolean);
  if (Array.isArray(payload.scp)) return payload.scp.filter((s): s is string => typeof s === "string");
  return [];
}

/** Builds the verifier; `onError` hears why the authorization server could not be reached. */
export function createTokenVerifier(options: AuthOptions, onError: (error: unknown) => void = () => {}): TokenVerifier {
  const resource = resourceOf(options);
  let jwks: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const keys = () => {
    if (!jwks) {
      jwks = discoverJwksUri(options.issuer).then((uri) => createRemoteJWKSet(uri));
      // a failed discovery is tried again by the next request
      jwks.catch(() => (jwks = undefined));
    }
    return jwks;
  };

  return async (token) => {
    let payload: JWTPayload;
    try {
      const verified = await jwtVerify(token, await keys(), {
        issuer: options.issuer,
        audience: resource,
        requiredClaims: ["sub", "exp"],
      });
      payload = verified.payload;
    } catch (error) {
      if (error instanceof errors.JOSEError && !(error instanceof errors.JWKSTimeout)) {
        return { ok: false, problem: "invalid_token", description: describe(error) };
      }
      onError(error);
      return {
        ok: false,
        problem: "unavailable",
        description: "The authorization server could not be reached to check the token. Try again in a moment.",
      };
    }
    const scopes = scopesOf(payload);
    const missing = options.scopes.filter((s) => !scopes.includes(s));
    if (missing.length > 0) {
      return {
        ok: false,
        problem: "insufficient_scope",
        description: `The token lacks the scope(s) ${missing.join(" ")}.`,
      };
    }
    const clientId = typeof payload.client_id === "string" ? payload.client_id : String(payload.azp ?? "");
    return {
      ok: true,
      auth: {
        token,
        clientId,
        scopes,
        expiresAt: payload.exp,
        resource: new URL(resource),
        extra: { sub: payload.sub },
      },
    };
  };
}

function describe(error: errors.JOSEError): string {
  if (error instanceof errors.JWTExpired) return "The token has expired.";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return "The token was not issued for this server.";
    if (error.claim === "iss") return "The token was not issued by this server's authorization server.";
    return `The token's ${error.claim} claim is not valid.`;
  }
  return "The token is not a valid signed token from this server's authorization server.";
}
