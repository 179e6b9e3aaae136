/**
 * The keys that sign tokens, from the authorization server within deadlines: its metadata (read once,
 * again after a failure) names its JWKS, which jose fetches and refreshes. A failure of the provider
 * is a `ProviderFault`, and the outage log hears of it and of the provider's return; what is the
 * token's fault (no key for its `kid`, an algorithm no key has) passes through as jose's error.
 */
import { createRemoteJWKSet, errors, type JWTVerifyGetKey } from "jose";
import type { OutagePart } from "../observability/outage-log.js";
import { fetchMetadata, METADATA_TIMEOUT_MS, ProviderFault, reasonOf } from "./provider-metadata.js";

/** How long a JWKS fetch may take, in ms. With the metadata's deadline, a token is answered within 5 s. */
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

/** The key resolver for `jwtVerify`, for tokens of `issuer`. */
export function createProviderKeys(
  issuer: string,
  outage: OutagePart,
  timeouts = { metadataMs: METADATA_TIMEOUT_MS, jwksMs: JWKS_TIMEOUT_MS },
): JWTVerifyGetKey {
  let keySet: Promise<KeySet> | undefined;
  const discover = () => {
    if (keySet === undefined) {
      const found = fetchMetadata(issuer, timeouts.metadataMs).then(({ jwksUri }) => ({
        jwksUri,
        getKey: createRemoteJWKSet(jwksUri, { timeoutDuration: timeouts.jwksMs }),
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
          : new ProviderFault(`its keys at ${set?.jwksUri.href}: ${reasonOf(error, timeouts.jwksMs)}`);
      outage.lost(fault.message);
      throw fault;
    }
  };
}
