import * as z from "zod/mini";
import { TOOL, type ToolName } from "../../shared/tools.js";
import { withCallLane } from "./call-lane.js";
import { INITIAL_GLOBALS, type Host } from "./host.js";
import type { ToolOutcome } from "./tool-reply.js";

type Pending = { name: ToolName; answer: (reply: ToolOutcome<unknown>) => void };
const OK: ToolOutcome<unknown> = { ok: true, value: {} };
const REFUSED: ToolOutcome<unknown> = {
  ok: false,
  error: { code: "internal", message: "Another execution is already in progress", transient: true },
};

/**
 * A host stand-in that runs one call at a time, as MCPJam does: a call made while another is in
 * flight is refused at once. Calls in flight are answered by the test.
 */
function serialHost() {
  const pending: Pending[] = [];
  const made: string[] = [];
  const host: Host = {
    getGlobals: () => INITIAL_GLOBALS,
    subscribe: () => () => undefined,
    fileDelivery: () => "none",
    deliverFile: async () => false,
    setWidgetState: async () => undefined,
    requestDisplayMode: async () => undefined,
    conversation: () => ({ modelContext: false, followUp: false }),
    updateModelContext: async () => false,
    sendFollowUp: async () => false,
    onTeardown: () => undefined,
    dispose: () => undefined,
    callTool<T>(name: ToolName): Promise<ToolOutcome<T>> {
      const busy = pending.length > 0;
      made.push(busy ? `${name} refused` : name);
      if (busy) return Promise.resolve(REFUSED as ToolOutcome<T>);
      return new Promise((resolve) => {
        const call: Pending = {
          name,
          answer: (reply) => {
            pending.splice(pending.indexOf(call), 1);
            resolve(reply as ToolOutcome<T>);
          },
        };
        pending.push(call);
      });
    },
  };
  const answer = (name: ToolName, reply = OK) => pending.find((p) => p.name === name)?.answer(reply);
  return { host: withCallLane(host), made, answer, inFlight: () => pending.map((p) => p.name) };
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const any = z.unknown();

describe("the person's calls go first", () => {
  it("a Cancel refused while a poll holds the only slot is made again the moment the poll is back, before the next poll", async () => {
    const { host, made, answer, inFlight } = serialHost();
    void host.callTool(TOOL.getJobEvents, {}, any);
    const cancel = host.callTool(TOOL.cancelJob, {}, any);
    const nextPoll = host.callTool(TOOL.getJobEvents, {}, any); // the loop asks again meanwhile
    await settle();
    expect(made).toEqual([TOOL.getJobEvents, `${TOOL.cancelJob} refused`]);

    answer(TOOL.getJobEvents);
    await settle();
    expect(inFlight()).toEqual([TOOL.cancelJob]); // not the poll: it waits for the person's call
    answer(TOOL.cancelJob);
    expect(await cancel).toEqual(OK);
    await settle();
    expect(made).toEqual([TOOL.getJobEvents, `${TOOL.cancelJob} refused`, TOOL.cancelJob, TOOL.getJobEvents]);
    answer(TOOL.getJobEvents);
    expect(await nextPoll).toEqual(OK);
  });

  it("a person's call that fails with nothing in flight is not made again", async () => {
    const { host, made, answer } = serialHost();
    const start = host.callTool(TOOL.startBulk, {}, any);
    answer(TOOL.startBulk, REFUSED);
    expect(await start).toEqual(REFUSED);
    expect(made).toEqual([TOOL.startBulk]);
  });

  it("a person's call that fails for good is not made again, poll or not", async () => {
    const { host, made, answer } = serialHost();
    void host.callTool(TOOL.getJobEvents, {}, any);
    const cancel = host.callTool(TOOL.cancelJob, {}, any);
    await settle();
    answer(TOOL.getJobEvents);
    await settle();
    void host.callTool(TOOL.getJobEvents, {}, any); // waits behind the person's call
    answer(TOOL.cancelJob, { ok: false, error: { code: "job_not_found", message: "gone", transient: false } });
    expect((await cancel).ok).toBe(false);
    await settle();
    expect(made).toEqual([TOOL.getJobEvents, `${TOOL.cancelJob} refused`, TOOL.cancelJob, TOOL.getJobEvents]);
  });
});

describe("two of the person's calls at once", () => {
  it("a Cancel refused while the table was filling in is made again once the table's call is back", async () => {
    const { host, made, answer } = serialHost();
    const table = host.callTool(TOOL.getJobTable, {}, any);
    const cancel = host.callTool(TOOL.cancelJob, {}, any);
    await settle();
    expect(made).toEqual([TOOL.getJobTable, `${TOOL.cancelJob} refused`]);
    answer(TOOL.getJobTable);
    await table;
    await settle();
    answer(TOOL.cancelJob);
    expect(await cancel).toEqual(OK);
    expect(made).toEqual([TOOL.getJobTable, `${TOOL.cancelJob} refused`, TOOL.cancelJob]);
  });
});

describe("the table filling in", () => {
  it("gives way to Cancel like the poll: no new table call while Cancel waits, so Cancel gets the slot", async () => {
    const { host, made, answer } = serialHost();
    void host.callTool(TOOL.getJobTable, {}, any);
    const cancel = host.callTool(TOOL.cancelJob, {}, any);
    const nextTable = host.callTool(TOOL.getJobTable, {}, any); // the next events ask for more rows
    await settle();
    answer(TOOL.getJobTable);
    await settle();
    expect(made).toEqual([TOOL.getJobTable, `${TOOL.cancelJob} refused`, TOOL.cancelJob]);
    answer(TOOL.cancelJob);
    expect(await cancel).toEqual(OK);
    await settle();
    answer(TOOL.getJobTable);
    await nextTable;
    expect(made.at(-1)).toBe(TOOL.getJobTable);
  });
});
