import { applyJobEvents, createJobFold } from "../../../shared/job-reducer.js";
import { FILE_TOOL } from "../../../shared/files.js";
import { TOOL } from "../../../shared/tools.js";
import { NO_FAULTS, seededRandom, type FaultConfig } from "./faults.js";
import { BusyHostError, createFaultyCaller, DroppedReplyError, type CallTool } from "./faulty-call.js";
import { jobHistory, parseJobEvents } from "../../../test-kit/job-events.js";

const JOB = "job-f";
const ALL = jobHistory(JOB, { progress: 12 });

/** Answers get_job_events from a fixed event log in slices of three, the way the server pages. */
const eventLog: CallTool = async (name, args) => {
  if (name !== TOOL.getJobEvents) return { content: [{ type: "text", text: "ok" }], structuredContent: { name } };
  const after = typeof args.afterSeq === "number" ? args.afterSeq : 0;
  const events = ALL.filter((e) => e.seq > after).slice(0, 3);
  const nextSeq = events.length ? events[events.length - 1].seq : after;
  const done = nextSeq === ALL.length;
  const view = applyJobEvents(createJobFold(JOB), ALL.slice(0, nextSeq));
  return {
    content: [],
    structuredContent: { jobId: JOB, status: view.status, events, nextSeq, done, view },
    _meta: { a: 1 },
  };
};

/** A follow loop like the widget's: ask after nextSeq until done, retry on a network error. */
async function follow(callTool: CallTool) {
  let view = createJobFold(JOB);
  let afterSeq = 0;
  let errors = 0;
  for (let round = 0; round < 100; round++) {
    let reply;
    try {
      reply = await callTool(TOOL.getJobEvents, { jobId: JOB, afterSeq });
    } catch (e) {
      expect(e).toBeInstanceOf(DroppedReplyError);
      errors++;
      continue;
    }
    const sc = reply.structuredContent!;
    view = applyJobEvents(view, parseJobEvents(sc.events).events);
    afterSeq = sc.nextSeq as number;
    if (sc.done) return { view, errors };
  }
  throw new Error("the loop never finished");
}

function caller(config: FaultConfig, seed = 1) {
  const notes: string[] = [];
  let current = config;
  const callTool = createFaultyCaller({
    call: eventLog,
    config: () => current,
    onDropped: (fault) => {
      current = { ...current, [fault]: false };
    },
    note: (method) => notes.push(method),
    random: seededRandom(seed),
    sleep: async () => {},
  });
  return { callTool, notes };
}

describe("createFaultyCaller", () => {
  const expected = applyJobEvents(createJobFold(JOB), ALL);

  it("passes replies through untouched without faults", async () => {
    const { callTool, notes } = caller(NO_FAULTS);
    const reply = await callTool(TOOL.getJobEvents, { jobId: JOB, afterSeq: 0 });
    expect(reply).toEqual(await eventLog(TOOL.getJobEvents, { jobId: JOB, afterSeq: 0 }));
    expect(notes).toEqual([]);
  });

  it("leaves other tools alone even with every fault on", async () => {
    const { callTool, notes } = caller({
      duplicates: 3,
      shuffle: true,
      delayMs: 10,
      dropNext: true,
      dropNextChunk: false,
      oneCallAtATime: false,
      dropIsError: false,
      emptyObjects: false,
    });
    expect(await callTool(TOOL.suggestGifts, {})).toEqual(await eventLog(TOOL.suggestGifts, {}));
    expect(notes).toEqual([]);
  });

  it("drops exactly one reply, then the follow loop ends in the same view", async () => {
    const { callTool, notes } = caller({ ...NO_FAULTS, dropNext: true });
    const { view, errors } = await follow(callTool);
    expect(errors).toBe(1);
    expect(notes.filter((n) => n === "fault/drop")).toHaveLength(1);
    expect(view).toEqual(expected);
  });

  it("loses one put_file_chunk reply after the call reached the server, then lets the next through", async () => {
    const reached: unknown[] = [];
    let current: FaultConfig = { ...NO_FAULTS, dropNextChunk: true };
    const notes: unknown[] = [];
    const callTool = createFaultyCaller({
      call: async (name, args) => (reached.push([name, args.index]), { content: [], structuredContent: { name } }),
      config: () => current,
      onDropped: (fault) => {
        current = { ...current, [fault]: false };
      },
      note: (method, detail) => notes.push([method, detail]),
    });
    const chunk = { uploadId: "up-1", index: 3, data: "QUJD".repeat(1000) };
    await expect(callTool(FILE_TOOL.putChunk, chunk)).rejects.toBeInstanceOf(DroppedReplyError);
    await expect(callTool(FILE_TOOL.putChunk, chunk)).resolves.toMatchObject({ structuredContent: {} });
    expect(reached).toEqual([
      [FILE_TOOL.putChunk, 3],
      [FILE_TOOL.putChunk, 3],
    ]);
    expect(notes).toEqual([["fault/drop", { tool: FILE_TOOL.putChunk, uploadId: "up-1", index: 3 }]]);
    expect(current.dropNextChunk).toBe(false);
  });

  it("keeps the rest of the reply and only reshapes the events", async () => {
    const { callTool } = caller({ ...NO_FAULTS, duplicates: 2 });
    const reply = await callTool(TOOL.getJobEvents, { jobId: JOB, afterSeq: 0 });
    expect(reply._meta).toEqual({ a: 1 });
    expect((reply.structuredContent!.events as unknown[]).length).toBe(6);
    expect(reply.structuredContent!.nextSeq).toBe(3);
  });

  it.each([1, 2, 3, 4, 5])("ends in the same view with duplicates ×3, shuffling and a drop (seed %i)", async (seed) => {
    const { callTool, notes } = caller(
      { ...NO_FAULTS, duplicates: 3, shuffle: true, delayMs: 5, dropNext: true },
      seed,
    );
    const { view } = await follow(callTool);
    expect(view).toEqual(expected);
    expect(notes).toContain("fault/batch");
  });

  it("as a host that runs one call at a time, refuses a call while another is in flight, and takes the next once it is back", async () => {
    let answer = () => {};
    const slow: CallTool = (name, args) =>
      new Promise((resolve) => (answer = () => void eventLog(name, args).then(resolve)));
    const notes: string[] = [];
    const callTool = createFaultyCaller({
      call: slow,
      config: () => ({ ...NO_FAULTS, oneCallAtATime: true }),
      onDropped: () => {},
      note: (method) => notes.push(method),
    });
    const poll = callTool(TOOL.getJobEvents, { jobId: JOB, afterSeq: 0 });
    await expect(callTool(TOOL.cancelJob, { jobId: JOB })).rejects.toBeInstanceOf(BusyHostError);
    expect(notes).toEqual(["fault/refused"]);
    answer();
    await poll;
    const cancel = callTool(TOOL.cancelJob, { jobId: JOB });
    answer();
    await expect(cancel).resolves.toMatchObject({ structuredContent: { name: TOOL.cancelJob } });
  });

  it("as a host that drops isError, hands a refusal over with isError false and the server's error still in it", async () => {
    const refusal = {
      isError: true,
      content: [{ type: "text", text: "The file is 9.0 MB; the limit is 8.0 MB." }],
      structuredContent: { error: { code: "input_too_large", message: "The file is 9.0 MB; the limit is 8.0 MB." } },
    };
    const notes: unknown[] = [];
    let config: FaultConfig = { ...NO_FAULTS, dropIsError: true };
    const callTool = createFaultyCaller({
      call: async (name) => (name === FILE_TOOL.preview ? refusal : { content: [], structuredContent: { name } }),
      config: () => config,
      onDropped: () => {},
      note: (method, detail) => notes.push([method, detail]),
    });
    expect(await callTool(FILE_TOOL.preview, { uploadId: "up-1" })).toEqual({ ...refusal, isError: false });
    expect(notes).toEqual([["fault/isError", { tool: FILE_TOOL.preview }]]);
    // a reply that was no error is left as it was, and so is every reply once the switch is off
    expect(await callTool(TOOL.cancelJob, {})).toEqual({ content: [], structuredContent: { name: TOOL.cancelJob } });
    config = NO_FAULTS;
    expect(await callTool(FILE_TOOL.preview, { uploadId: "up-1" })).toEqual(refusal);
    expect(notes).toHaveLength(1);
  });
});
