/**
 * How many MCP sessions may be open at once, and how long one must have been idle before it may be
 * closed to make room for a newcomer (ms): the defaults of the HTTP handler, which the
 * configuration's MAX_SESSIONS and SESSION_MIN_IDLE_SECONDS state and override.
 */
export const SESSION_DEFAULTS = { maxSessions: 10_000, minIdleMs: 60_000 } as const;
