/**
 * The authorization server's metadata (RFC 8414 or OpenID discovery) within a deadline: its `jwks_uri`,
 * and its issuer, which must be the configured one exactly (RFC 8414 §3.3); then its keys (jose's
 * remote JWKS). A failure is a one-line `ProviderFault`: `misconfigured`, or the provider out for now.
 */
import { createRemoteJWKSet, errors, type JWTVerifyGetKey } from "jose";
import * as z from "zod/mini";
import type { OutagePart } from "../observability/outage-log.js";
import type { AuthOptions } from "./auth-options.js";

/** All locations together. */
const METADATA_TIMEOUT_MS = 2000;

/** The sign-in provider failed us (not the token): out for now, or configured so that it cannot work. */
export class ProviderFault extends Error {
  constructor(
    message: string,
    readonly misconfigured = false,
  ) {
    super(message);
    this.name = "ProviderFault";
  }
}

const MetadataSchema = z.object({ issuer: z.string(), jwks_uri: z.url() });

function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, "");
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/** Why a call to the provider failed, in a few words. */
function reasonOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "JWKSTimeout")) {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  const cause = error instanceof Error ? error.cause : undefined;
  const detail = cause instanceof Error ? cause.message : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return detail ? `${message} (${detail})` : message;
}

/** The provider's `jwks_uri`, from metadata that names `issuer` exactly. */
export async function fetchMetadata(issuer: string, timeoutMs = METADATA_TIMEOUT_MS): Promise<URL> {
  const signal = AbortSignal.timeout(timeoutMs);
  const statuses: string[] = [];
  for (const url of metadataUrls(issuer)) {
    let body: unknown;
    try {
      const response = await fetch(url, { headers: { accept: "application/json" }, signal });
      if (!response.ok) {
        await response.body?.cancel();
        statuses.push(`${url}: HTTP ${response.status}`);
        continue;
      }
      // a body that is not JSON is metadata without an issuer, not an outage
      body = await response.json().catch((error: unknown) => {
        if (error instanceof SyntaxError) return undefined;
        throw error;
      });
    } catch (error) {
      throw new ProviderFault(`its metadata at ${url}: ${reasonOf(error, timeoutMs)}`);
    }
    const parsed = MetadataSchema.safeParse(body);
    if (!parsed.success) {
      throw new ProviderFault(`AUTH_ISSUER=${issuer}: the metadata at ${url} has no issuer and jwks_uri.`, true);
    }
    if (parsed.data.issuer !== issuer) {
      throw new ProviderFault(
        `AUTH_ISSUER=${issuer} is not the issuer its metadata names: ${url} says "${parsed.data.issuer}". ` +
          `Set AUTH_ISSUER to exactly ${parsed.data.issuer}`,
        true,
      );
    }
    return new URL(parsed.data.jwks_uri);
  }
  // every location answered, none with metadata: a wrong URL unless the provider itself is failing
  const listed = statuses.join("; ");
  if (statuses.every((s) => / HTTP 4\d\d$/.test(s))) {
    throw new ProviderFault(`AUTH_ISSUER=${issuer} has no metadata (${listed}): set it to the issuer's URL`, true);
  }
  throw new ProviderFault(`its metadata: ${listed}`);
}

/** The start-up check: undefined when the metadata fits; else the line to print, `fatal` for a bad setting. */
export async function checkIssuer(options: AuthOptions, timeoutMs = METADATA_TIMEOUT_MS) {
  try {
    await fetchMetadata(options.issuer, timeoutMs);
    return undefined;
  } catch (error) {
    if (!(error instanceof ProviderFault)) throw error;
    if (error.misconfigured) return { fatal: true, line: `${error.message}.` };
    return {
      fatal: false,
      line: `Sign-in provider ${options.issuer} could not be checked at start (${error.message}); requests with a token get 503 until it answers.`,
    };
  }
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

/** The provider's keys for jose, found through its metadata; its failures are `ProviderFault`s told to `outage`. */
export function createProviderKeys(issuer: string, outage: OutagePart): JWTVerifyGetKey {
  let keySet: Promise<KeySet> | undefined;
  const discover = () =>
    (keySet ??= fetchMetadata(issuer).then(
      (jwksUri) => ({ jwksUri, getKey: createRemoteJWKSet(jwksUri, { timeoutDuration: JWKS_TIMEOUT_MS }) }),
      (error: unknown) => {
        keySet = undefined; // a failed lookup is tried again by the next request
        throw error;
      },
    ));

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
