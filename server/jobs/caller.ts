import * as z from "zod/mini";

/** Who is calling: the authenticated subject ("anonymous" while auth is off) and the MCP session. */
export const CallerSchema = z.object({ subject: z.string(), sessionId: z.optional(z.string()) });
export type Caller = z.infer<typeof CallerSchema>;
