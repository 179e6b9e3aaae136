/**
 * The person's calls go first. Some hosts run one tool call at a time (MCPJam: "Another execution is
 * already in progress"), where the long poll would starve Cancel: background calls wait for the person's,
 * and a person's call refused while others were in flight is made again once they are back.
 */
import { TOOL, type ToolName } from "../../shared/tools.js";
import type { Host } from "./host.js";

/** Tries again after a refusal, each right after the calls before it came back. */
const RETRIES = 3;

/** The widget's own calls: the poll, and the table filling in (else it would take each freed slot before Cancel). */
const BACKGROUND = new Set<ToolName>([TOOL.getJobEvents, TOOL.getJobTable]);

export function withCallLane(host: Host): Host {
  const inFlight = new Set<Promise<unknown>>();
  let personal = 0;
  let wake: (() => void) | null = null;
  let cleared: Promise<void> = Promise.resolve();
  const track = <T>(call: Promise<T>): Promise<T> => {
    inFlight.add(call);
    void call.finally(() => inFlight.delete(call));
    return call;
  };

  const callTool: Host["callTool"] = async (name, args, schema) => {
    if (BACKGROUND.has(name)) {
      while (personal > 0) await cleared;
      return track(host.callTool(name, args, schema));
    }
    if (personal++ === 0) cleared = new Promise((resolve) => (wake = resolve));
    try {
      for (let attempt = 0; ; attempt++) {
        const busy = [...inFlight];
        const reply = await track(host.callTool(name, args, schema));
        if (reply.ok || !reply.error.transient || busy.length === 0 || attempt === RETRIES) return reply;
        await Promise.allSettled(busy);
      }
    } finally {
      if (--personal === 0) wake?.();
    }
  };
  return { ...host, callTool };
}
