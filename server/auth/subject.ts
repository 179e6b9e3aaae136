/**
 * Who a request comes from, the key of its sessions, jobs and quotas: `${issuer}#${sub}` (an issuer
 * URL has no fragment, so two issuers' `sub` "1" never meet), or "anonymous", which no token can be.
 */
import type { AuthInfo } from "@modelcontextprotocol/server";

export const subjectFor = (issuer: string, sub: string): string => `${issuer}#${sub}`;

/** From the verified token (bearer-auth.ts sets it), or anonymous without one. */
export function subjectOf(auth: AuthInfo | undefined): string {
  if (auth === undefined) return "anonymous";
  const subject = auth.extra?.subject;
  // never "anonymous" for a token: a token the gate let through always carries its subject
  if (typeof subject !== "string") throw new Error("A verified token reached the server without its subject.");
  return subject;
}
