/**
 * A stand-in for the host's `window.openai`, for the widget's tests. It runs jobs from generated
 * event histories (the real reducer gives the status) and answers the widget's tool calls,
 * with faults it can turn on: duplicated, reordered and held-back events, rejected calls, either reply shape.
 */
import type { JobEvent, Stage } from "../../shared/job-events.js";
import { foldJobEvents } from "../../shared/job-reducer.js";
import { isFinished } from "../../shared/job-view.js";
import { seededRandom } from "../../shared/seeded-random.js";
import {
  GetJobEventsInput,
  GetJobResultInput,
  StartBulkInput,
  TOOL,
  URI,
  type PersonResult,
} from "../../shared/tools.js";
import type { SkippedRow } from "../../shared/files.js";
import { DEFAULT_STAGES, jobEvent, jobHistory } from "../../test-kit/job-events.js";
import { SET_GLOBALS_EVENT } from "../host-globals.js";

type FakeJob = {
  stages?: Stage[];
  progressPerStage?: number;
  outcome?: "completed" | "failed" | "canceled";
  retryable?: boolean;
  people?: number;
  skipped?: SkippedRow[];
  /** Events the server has appended before the widget's first call (a widget that reloads). */
  alreadyAppended?: number;
};
type FakeFaults = {
  /** Repeat events within a batch and replay some sent before. */
  duplicate?: boolean;
  /** Shuffle every batch. */
  reorder?: boolean;
  /** Hold back one event of a batch, leaving a gap that only a contiguous cursor refetches. */
  gaps?: boolean;
  /** Reject every n-th get_job_events call, as a dropped connection would. */
  rejectEvery?: number;
  /** Reject these get_job_events calls (1-based). */
  rejectCalls?: number[];
  /** "full" tool results, the older { result: string }, or the two in turn. */
  shape?: "full" | "legacy" | "alternate";
};
export type FakeHostOptions = {
  /** The first job is the one in `toolOutput`; later ones are started by start_bulk_gift_analysis. */
  jobs?: FakeJob[];
  faults?: FakeFaults;
  /** Events the job appends between two get_job_events calls. */
  batchSize?: number;
  /** How long each call takes; 0 answers in a microtask. */
  latencyMs?: number;
  /** "job" puts the first job's StartBulkOutput there; anything else is passed as it is. */
  toolOutput?: unknown;
  toolInput?: unknown;
  widgetState?: unknown;
  theme?: "light" | "dark";
  locale?: string;
  maxHeight?: number;
  seed?: number;
};
type Call = { name: string; args: Record<string, unknown>; at: number };
type RunningJob = {
  id: string;
  stages: Stage[];
  history: JobEvent[];
  revealed: number;
  people: PersonResult[];
  skipped: SkippedRow[];
};

/** The fake host's `toolInput`: what start_bulk_gift_analysis was called with. */
export const START_INPUT = {
  csv: "name,department,interests\nAda,R&D,chess",
  occasion: "holidays",
  budgetPerPerson: 50,
};

/** The planned history of a fake job: created, started, rising progress over the stages, its ending. */
function historyOf(jobId: string, job: FakeJob): JobEvent[] {
  const stages = job.stages ?? DEFAULT_STAGES;
  const steps = stages.length * (job.progressPerStage ?? 3);
  const ending = job.outcome ?? "completed";
  // a job that does not complete stops halfway
  const progress = ending === "completed" ? steps : Math.ceil(steps / 2);
  return jobHistory(jobId, { stages, steps, progress, ending, failure: { retryable: job.retryable ?? true } });
}

function makePeople(count: number): PersonResult[] {
  return Array.from({ length: count }, (_, i) => ({
    row: i + 2,
    name: `Person ${i + 1}`,
    department: i % 2 === 0 ? "R&D" : null,
    interests: ["chess"],
    budget: 50,
    gifts: [{ id: `g${i}`, name: `Chess set ${i + 1}`, price: 39.5, category: "games", reason: "Likes chess" }],
  }));
}

/** Installs the fake as `window.openai`; `uninstall` removes it. */
export function installFakeHost(options: FakeHostOptions = {}) {
  const faults = options.faults ?? {};
  const random = seededRandom(options.seed ?? 7);
  const plans = options.jobs ?? [{}];
  const jobs = new Map<string, RunningJob>();
  const calls: Call[] = [];
  let eventsCalls = 0;
  let inFlight = 0;
  let maxInFlight = 0;

  const startJob = (): RunningJob => {
    const plan = plans[Math.min(jobs.size, plans.length - 1)];
    const id = `job-${jobs.size + 1}`;
    const history = historyOf(id, plan);
    const revealed = Math.min(history.length, plan.alreadyAppended ?? 0);
    const job = {
      id,
      stages: plan.stages ?? DEFAULT_STAGES,
      history,
      revealed,
      people: makePeople(plan.people ?? 3),
      skipped: plan.skipped ?? [],
    };
    jobs.set(id, job);
    return job;
  };
  const first = startJob();
  const started = (job: RunningJob) => ({
    jobId: job.id,
    status: "pending",
    stages: job.stages,
    resultUri: URI.jobResult(job.id),
  });

  const reply = (structuredContent: Record<string, unknown>) => {
    const legacy = faults.shape === "legacy" || (faults.shape === "alternate" && calls.length % 2 === 0);
    const text = JSON.stringify(structuredContent);
    return legacy ? { result: text } : { structuredContent, content: [{ type: "text", text }], isError: false };
  };
  const failure = (code: string, message: string) =>
    faults.shape === "legacy"
      ? { result: message }
      : { structuredContent: { error: { code, message } }, content: [{ type: "text", text: message }], isError: true };
  const foldOf = (job: RunningJob) => foldJobEvents(job.id, job.history.slice(0, job.revealed));
  const shuffle = <T>(xs: T[]) =>
    xs
      .map((x) => [random(), x] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, x]) => x);

  function getEvents(raw: Record<string, unknown>) {
    const args = GetJobEventsInput.parse(raw);
    const job = jobs.get(args.jobId);
    if (job === undefined)
      return failure("unknown_job", `No job ${args.jobId}. Start one with start_bulk_gift_analysis.`);
    job.revealed = Math.min(job.history.length, job.revealed + (options.batchSize ?? 4));
    const visible = job.history.slice(0, job.revealed);
    let events = visible.filter((e) => e.seq > args.afterSeq);
    if (faults.gaps && events.length >= 3 && random() < 0.5) events.splice(1, 1);
    if (faults.duplicate) {
      const again = [
        ...events.filter(() => random() < 0.5),
        ...visible.filter((e) => e.seq <= args.afterSeq && random() < 0.3),
      ];
      events = [...events, ...again.map((e) => structuredClone(e))];
    }
    if (faults.reorder) events = shuffle(events);
    const fold = foldOf(job);
    const done = isFinished(fold.status) && job.revealed === job.history.length;
    return reply({ jobId: job.id, status: fold.status, events, nextSeq: fold.lastSeq, done });
  }

  function cancel(raw: Record<string, unknown>) {
    const job = jobs.get(String(raw.jobId));
    if (job === undefined) return failure("unknown_job", "No such job.");
    const last = job.history[job.history.length - 1];
    if (isFinished(foldOf(job).status) || last.type === "job.canceled")
      return reply({ jobId: job.id, status: foldOf(job).status, changed: false });
    job.history = job.history.slice(0, job.revealed);
    job.history.push(jobEvent(job.id, job.revealed + 1, "job.canceled"));
    return reply({ jobId: job.id, status: "running", changed: true });
  }

  function getResult(raw: Record<string, unknown>) {
    const args = GetJobResultInput.parse(raw);
    const job = jobs.get(args.jobId);
    if (job === undefined) return failure("unknown_job", "No such job.");
    if (foldOf(job).status !== "completed") return failure("job_not_finished", "The job has not completed yet.");
    const people = job.people.slice(args.offset, args.offset + args.limit);
    const end = args.offset + people.length;
    return reply({
      jobId: job.id,
      summary: "Gifts found for 3 people.",
      total: job.people.length,
      offset: args.offset,
      nextOffset: end < job.people.length ? end : null,
      people,
      skipped: job.skipped,
      resultUri: URI.jobResult(job.id),
      partial: false,
    });
  }

  const setGlobals = (globals: Record<string, unknown>) => {
    Object.assign(openai, globals);
    window.dispatchEvent(new CustomEvent(SET_GLOBALS_EVENT, { detail: { globals } }));
  };
  const answer = (name: string, args: Record<string, unknown>): unknown => {
    if (name === TOOL.getJobEvents) return getEvents(args);
    if (name === TOOL.cancelJob) return cancel(args);
    if (name === TOOL.getJobResult) return getResult(args);
    if (name === TOOL.startBulk)
      return StartBulkInput.safeParse(args).success
        ? reply(started(startJob()))
        : failure("invalid_arguments", "Bad input.");
    return failure("invalid_arguments", `Unknown tool ${name}.`);
  };

  const openai: Record<string, unknown> = {
    toolInput: options.toolInput ?? START_INPUT,
    toolOutput: options.toolOutput === undefined || options.toolOutput === "job" ? started(first) : options.toolOutput,
    toolResponseMetadata: null,
    widgetState: options.widgetState ?? null,
    theme: options.theme ?? "light",
    displayMode: "inline",
    maxHeight: options.maxHeight ?? 600,
    locale: options.locale ?? "en-US",
    async callTool(name: string, args: Record<string, unknown>) {
      calls.push({ name, args, at: Date.now() });
      const isEvents = name === TOOL.getJobEvents;
      const n = isEvents ? ++eventsCalls : 0;
      if (isEvents) maxInFlight = Math.max(maxInFlight, ++inFlight);
      try {
        const latency = options.latencyMs ?? 1;
        await (latency > 0 ? new Promise((r) => setTimeout(r, latency)) : Promise.resolve());
        if ((faults.rejectEvery && n > 0 && n % faults.rejectEvery === 0) || faults.rejectCalls?.includes(n))
          throw new Error("network connection lost");
        return answer(name, args);
      } finally {
        if (isEvents) inFlight--;
      }
    },
    async setWidgetState(state: unknown) {
      calls.push({ name: "setWidgetState", args: { state }, at: Date.now() });
      setGlobals({ widgetState: state });
    },
    async requestDisplayMode(args: { mode: string }) {
      calls.push({ name: "requestDisplayMode", args, at: Date.now() });
      setGlobals({ displayMode: args.mode });
      return { mode: args.mode };
    },
    async sendFollowUpMessage(args: { prompt: string }) {
      calls.push({ name: "sendFollowUpMessage", args, at: Date.now() });
    },
  };
  Reflect.set(window, "openai", openai);

  return {
    openai,
    calls,
    /** The arguments of every call to `name`, in order. */
    argsOf: (name: string) => calls.filter((c) => c.name === name).map((c) => c.args),
    /** When each call to `name` was made (Date.now(), so fake timers control it). */
    timesOf: (name: string) => calls.filter((c) => c.name === name).map((c) => c.at),
    /** The full planned history of a job (what the server will have appended by the end). */
    historyOf: (jobId: string) => jobs.get(jobId)?.history ?? [],
    /** The most get_job_events calls that were ever in flight at once. */
    maxInFlight: () => maxInFlight,
    setGlobals,
    uninstall: () => Reflect.deleteProperty(window, "openai"),
  };
}
export type FakeHost = ReturnType<typeof installFakeHost>;
