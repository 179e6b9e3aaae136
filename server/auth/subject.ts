/**
 * Who a request comes from: with sign-in, the issuer and `sub` of its verified token as one opaque
 * string, `${issuer}#${sub}` (an issuer URL has no fragment, so two issuers' `sub` "1" never meet);
 * without sign-in, "anonymous", which no token can be. Sessions, jobs, subscriptions and quotas are
 * all keyed by this one string.
 */
import type { AuthInfo } from "@modelcontextprotocol/server";

const ANONYMOUS = "anonymous";

/** The subject of the user `sub` of `issuer`. */
export const subjectFor = (issuer: string, sub: string): string => `${issuer}#${sub}`;

/** The caller's subject: from its verified token (verify-token.ts sets it), or anonymous without one. */
export function subjectOf(auth: AuthInfo | undefined): string {
  if (auth === undefined) return ANONYMOUS;
  const subject = auth.extra?.subject;
  // never "anonymous" for a token: a token the gate let through always carries its subject
  if (typeof subject !== "string") throw new Error("A verified token reached the server without its subject.");
  return subject;
}
