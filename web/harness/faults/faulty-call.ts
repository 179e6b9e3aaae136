/**
 * The widget's callTool path with faults in it: wraps the real call and, for `get_job_events`
 * replies, delays, drops (the widget sees a network error) or reshapes the event batch; for
 * `put_file_chunk`, drops one reply after the server kept the chunk. Held-back events are kept
 * per job and delivered with that job's next reply. As a host that runs one call at a time, it
 * refuses a call made while another is in flight; as a host that drops `isError`, it hands every
 * reply over with `isError: false`, the server's error still in its content.
 */
import { FILE_TOOL } from "../../../shared/files.js";
import { TOOL, GetJobEventsOutput } from "../../../shared/tools.js";
import { isTerminalEvent, type JobEvent } from "../../../shared/job-events.js";
import { faultBatch, type FaultConfig, type OneShotFault } from "./faults.js";

/** What the widget's `callTool` resolves with: the tool result as the server sent it. */
export type WidgetToolResult = {
  structuredContent?: Record<string, unknown>;
  content: unknown[];
  isError?: boolean;
  _meta?: Record<string, unknown>;
};
export type CallTool = (name: string, args: Record<string, unknown>) => Promise<WidgetToolResult>;

export type FaultyCallerOptions = {
  call: CallTool;
  /** Read on every call, so switches take effect at once. */
  config: () => FaultConfig;
  /** A one-shot drop fired: its control should switch itself off. */
  onDropped: (fault: OneShotFault) => void;
  /** Records what a fault did, for the log. */
  note: (method: string, detail: unknown) => void;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
};

/** The error a dropped reply turns into, as a failed fetch would surface it. */
export class DroppedReplyError extends Error {
  constructor(tool: string) {
    super(`Network error: the reply to ${tool} was lost (dropped by fault injection)`);
    this.name = "DroppedReplyError";
  }
}

/** What a host that runs one call at a time answers meanwhile (MCPJam's words). */
export class BusyHostError extends Error {
  constructor() {
    super("Another execution is already in progress");
    this.name = "BusyHostError";
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Returns a `CallTool` that behaves like `options.call` with the configured faults applied. */
export function createFaultyCaller(options: FaultyCallerOptions): CallTool {
  const { call, config, onDropped, note, random = Math.random, sleep = defaultSleep } = options;
  const held = new Map<string, JobEvent[]>();
  let inFlight = 0;

  const faulty: CallTool = async (name, args) => {
    const result = await call(name, args);
    if (name === FILE_TOOL.putChunk && config().dropNextChunk) {
      onDropped("dropNextChunk");
      // the chunk's bytes stay out of the log: its upload and index say which one was lost
      note("fault/drop", { tool: name, uploadId: args.uploadId, index: args.index });
      throw new DroppedReplyError(name);
    }
    if (name !== TOOL.getJobEvents) return result;
    const faults = config();
    if (faults.delayMs > 0) await sleep(faults.delayMs);
    if (faults.dropNext) {
      onDropped("dropNext");
      note("fault/drop", { tool: name, arguments: args });
      throw new DroppedReplyError(name);
    }
    const parsed = GetJobEventsOutput.safeParse(result.structuredContent);
    if (!parsed.success || result.isError) return result;
    const reply = parsed.data;
    const carried = held.get(reply.jobId) ?? [];
    if (faults.duplicates <= 1 && !faults.shuffle && carried.length === 0) return result;
    const final = reply.done || reply.events.some(isTerminalEvent);
    const out = faultBatch({ events: reply.events, final }, carried, faults, random);
    if (out.held.length > 0) held.set(reply.jobId, out.held);
    else held.delete(reply.jobId);
    note("fault/batch", {
      jobId: reply.jobId,
      received: reply.events.length,
      delivered: out.events.length,
      carriedIn: carried.length,
      heldBack: out.held.length,
    });
    return { ...result, structuredContent: { ...result.structuredContent, events: out.events } };
  };

  return async (name, args) => {
    if (config().oneCallAtATime && inFlight > 0) {
      note("fault/refused", { tool: name, inFlight });
      throw new BusyHostError();
    }
    inFlight++;
    try {
      const result = await faulty(name, args);
      if (!result.isError || !config().dropIsError) return result;
      note("fault/isError", { tool: name });
      return { ...result, isError: false };
    } finally {
      inFlight--;
    }
  };
}
