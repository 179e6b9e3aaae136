/**
 * Who is calling, as the job system keeps it: the job's owner in the store, the subject every read
 * is checked against (access.ts), the session its notifications go to.
 */

/** The authenticated subject ("anonymous" while auth is off) and the MCP session. */
export type Caller = { subject: string; sessionId?: string };
