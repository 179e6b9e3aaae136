/** Who is calling: the authenticated subject ("anonymous" while auth is off) and the MCP session. */
export type Caller = { subject: string; sessionId?: string };
