/**
 * Verifies bearer tokens with jose: signature, issuer, audience, expiry, scopes, and a `sub` that
 * names someone. A verified token becomes the SDK's `AuthInfo` with its subject in `extra.subject`.
 * The provider's failures are `ProviderFault`s told to the outage log; the token's own faults pass
 * through as jose's errors.
 */
import type { AuthInfo } from "@modelcontextprotocol/server";
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { resourceOf, type AuthOptions } from "./auth-options.js";
import { createOutageLog, type OutagePart } from "../observability/outage-log.js";
import { fetchMetadata, ProviderFault, reasonOf } from "./provider-metadata.js";
import { subjectFor } from "./subject.js";

type Problem = "invalid_token" | "insufficient_scope" | "unavailable";
type TokenCheck = { ok: true; auth: AuthInfo } | { ok: false; problem: Problem; description: string };

const refused = (problem: Problem, description: string): TokenCheck => ({ ok: false, problem, description });

function scopesOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === "string") return payload.scope.split(" ").filter(Boolean);
  if (Array.isArray(payload.scp)) return payload.scp.filter((s): s is string => typeof s === "string");
  return [];
}

/** `onError` hears unexpected errors, and the provider's outages as one-line strings. */
export function createTokenVerifier(options: AuthOptions, onError: (error: unknown) => void = () => {}) {
  const resource = resourceOf(options);
  const provider = createOutageLog({
    dependency: `Sign-in provider ${options.issuer}`,
    print: (line) => onError(line),
  });
  const outage = provider.part("token checks");
  const keys = createProviderKeys(options.issuer, outage);

  return async (token: string): Promise<TokenCheck> => {
    let payload: JWTPayload;
    try {
      // the issuer is compared as the metadata names it, which the metadata lookup holds to options.issuer
      const verified = await jwtVerify(token, keys, {
        issuer: options.issuer,
        audience: resource,
        requiredClaims: ["sub", "exp"],
      });
      payload = verified.payload;
    } catch (error) {
      if (error instanceof errors.JOSEError) return refused("invalid_token", describe(error));
      if (!(error instanceof ProviderFault)) onError(error);
      return refused(
        "unavailable",
        "The authorization server could not be reached to check the token. Try again in a moment.",
      );
    }
    // a number, an object or "" names no one: taken as a name, all such tokens would be one user
    if (typeof payload.sub !== "string" || payload.sub === "") {
      return refused("invalid_token", "The token's sub claim is not a non-empty string, so it names no user.");
    }
    const scopes = scopesOf(payload);
    const missing = options.scopes.filter((s) => !scopes.includes(s));
    if (missing.length > 0) return refused("insufficient_scope", `The token lacks the scope(s) ${missing.join(" ")}.`);
    const clientId =
      typeof payload.client_id === "string" ? payload.client_id : typeof payload.azp === "string" ? payload.azp : "";
    return {
      ok: true,
      auth: {
        token,
        clientId,
        scopes,
        expiresAt: payload.exp,
        resource: new URL(resource),
        extra: { sub: payload.sub, subject: subjectFor(options.issuer, payload.sub) },
      },
    };
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

/** With the metadata's deadline, a token is answered within 5 s. */
const JWKS_TIMEOUT_MS = 2000;

const TOKEN_FAULTS = [
  errors.JWKSNoMatchingKey,
  errors.JWKSMultipleMatchingKeys,
  errors.JOSENotSupported,
  errors.JOSEAlgNotAllowed,
  errors.JWSInvalid,
];
const isTokenFault = (error: unknown) => TOKEN_FAULTS.some((fault) => error instanceof fault);

type KeySet = { jwksUri: URL; getKey: ReturnType<typeof createRemoteJWKSet> };

function createProviderKeys(issuer: string, outage: OutagePart): JWTVerifyGetKey {
  let keySet: Promise<KeySet> | undefined;
  const discover = () => {
    if (keySet === undefined) {
      const found = fetchMetadata(issuer).then(({ jwksUri }) => ({
        jwksUri,
        getKey: createRemoteJWKSet(jwksUri, { timeoutDuration: JWKS_TIMEOUT_MS }),
      }));
      keySet = found;
      // a failed lookup is tried again by the next request
      found.catch(() => {
        if (keySet === found) keySet = undefined;
      });
    }
    return keySet;
  };

  return async (header, token) => {
    let set: KeySet | undefined;
    try {
      set = await discover();
      const key = await set.getKey(header, token);
      outage.back();
      return key;
    } catch (error) {
      if (isTokenFault(error)) {
        outage.back();
        throw error;
      }
      const fault =
        error instanceof ProviderFault
          ? error
          : new ProviderFault(`its keys at ${set?.jwksUri.href}: ${reasonOf(error, JWKS_TIMEOUT_MS)}`);
      outage.lost(fault.message);
      throw fault;
    }
  };
}
