/**
 * Who a request comes from: the `sub` of its verified access token, or "anonymous" while sign-in
 * is off. Sessions, jobs and subscriptions are all keyed by this one string.
 */
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";

const ANONYMOUS = "anonymous";

export function subjectOf(auth: AuthInfo | undefined): string {
  const sub = auth?.extra?.sub;
  return typeof sub === "string" && sub !== "" ? sub : ANONYMOUS;
}
