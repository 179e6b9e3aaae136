/**
 * The SDK `Server` as this app types it: besides the standard notifications it sends the
 * job-event notifications of `shared/job-events.ts`.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Request, Result } from "@modelcontextprotocol/sdk/types.js";
import type { JobEvent, JobNotificationMethod } from "../../shared/job-events.js";

type JobNotification = { method: JobNotificationMethod; params: JobEvent };
export type GiftServer = Server<Request, JobNotification, Result>;
