/**
 * A stand-in for the host's `window.openai`, for the widget's tests. It runs jobs from generated
 * event histories (the real reducer gives the status) and answers the widget's tool calls,
 * with faults it can turn on: duplicated, reordered and held-back events, rejected calls, either reply shape.
 * It also answers the file tools (chunked uploads kept in memory, a preview, exports) and has
 * `openExternal`, and an `uploadFile` that, like ChatGPT's, takes only images. The claim on a job's
 * follow-up is answered as the server does: true once per job, only after it has ended.
 */
import type { JobEvent, Stage } from "../../shared/job-events.js";
import { foldJobEvents } from "../../shared/job-reducer.js";
import { isFinished } from "../../shared/job-view.js";
import { seededRandom } from "../../shared/seeded-random.js";
import type { Currency } from "../../shared/money.js";
import {
  GetJobEventsInput,
  GetJobResultInput,
  GetJobTableInput,
  JobIdInput,
  StartBulkInput,
  TOOL,
  URI,
  tableRowOf,
  type PersonResult,
  type ResultFigures,
  type UnplacedInterests,
} from "../../shared/tools.js";
import {
  BeginUploadInput,
  DropUploadInput,
  ExportInput,
  FILE_TOOL,
  PreviewInput,
  PutChunkInput,
  type Reading,
  type SkippedRow,
  type StaffPreview,
} from "../../shared/files.js";
import { DEFAULT_STAGES, jobEvent, jobHistory } from "../job-events.js";
import { SET_GLOBALS_EVENT } from "../../web/host-globals.js";

type FakeJob = {
  stages?: Stage[];
  progressPerStage?: number;
  outcome?: "completed" | "failed" | "canceled";
  retryable?: boolean;
  /** How many people the result has ("Person 1" and so on), or the people themselves. */
  people?: number | PersonResult[];
  /** The currency job.created names (none by default, as older jobs). */
  currency?: Currency;
  skipped?: SkippedRow[];
  /** Events the server has appended before the widget's first call (a widget that reloads). */
  alreadyAppended?: number;
  /** While the job runs, get_job_result answers this many people, partial (none by default: not finished). */
  composedSoFar?: number;
  /** The interests the server could not place, as its figures say them. */
  unplaced?: UnplacedInterests;
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
type FakeFiles = {
  /** What preview_staff_file answers for a reading; a ready three-row CSV by default. */
  preview?: (reading: Reading, fileName: string) => StaffPreview;
  /** A refusal preview_staff_file answers with instead (a file no reader can open). */
  previewFailure?: { code: string; message: string };
  /** put_file_chunk calls (1-based) whose reply is lost after the chunk was kept, as a dropped reply. */
  dropChunkReplies?: number[];
  chunkBytes?: number;
};
export type FakeHostOptions = {
  files?: FakeFiles;
  /** Leave `openExternal` out, as a host without it. */
  noOpenExternal?: boolean;
  /** Leave `sendFollowUpMessage` out, as a host without it. */
  noFollowUp?: boolean;
  /** Jobs whose follow-up another card has claimed already. */
  claimed?: string[];
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
  toolResponseMetadata?: unknown;
  widgetState?: unknown;
  theme?: "light" | "dark";
  /** Where the widget starts; inline by default. */
  displayMode?: "inline" | "fullscreen" | "pip";
  /** Leave `requestDisplayMode` out, as a host with no fullscreen: the widget lists people as cards. */
  noDisplayModes?: boolean;
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
  composedSoFar: number | undefined;
  unplaced: UnplacedInterests | undefined;
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
  const history = jobHistory(jobId, { stages, steps, progress, ending, failure: { retryable: job.retryable ?? true } });
  const created = history[0];
  if (job.currency && created.type === "job.created") created.payload.currency = job.currency;
  return history;
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

/** A ready preview of a three-row CSV: what the fake server understood of `fileName`. */
export function samplePreview(reading: Reading, fileName: string): StaffPreview {
  const headers = ["이름", "부서", "관심사", "예산"];
  return {
    uploadId: "up-1",
    fileName,
    format: "csv",
    encoding: reading.encoding ?? "euc-kr",
    encodingCertain: true,
    separator: ",",
    sheets: [],
    sheet: null,
    headers,
    columns: { name: 0, department: 1, interests: 2, budget: 3, id: -1, ...reading.columns },
    rows: 3,
    people: 2,
    sample: [
      { row: 2, name: "김민준", department: "영업", interests: "커피", budget: "50" },
      { row: 3, name: "이서연", department: "개발", interests: "등산", budget: "" },
    ],
    skipped: [{ row: 4, reason: "No name" }],
    skippedCount: 1,
    possibleDuplicates: [],
    possibleDuplicateCount: 0,
    problems: [],
    ready: true,
  };
}

// jsdom's Blob has no arrayBuffer(); the widget reads files with it, as browsers let it
if (typeof Blob !== "undefined" && !Blob.prototype.arrayBuffer)
  Blob.prototype.arrayBuffer = function (this: Blob) {
    return new Promise<ArrayBuffer>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as ArrayBuffer);
      reader.onerror = () => reject(reader.error ?? new Error("unreadable"));
      reader.readAsArrayBuffer(this);
    });
  };

/** The file tools of the fake server: uploads in chunks kept by (name, size, digest), a preview, exports. */
function fakeFiles(
  options: FakeFiles,
  reply: (s: Record<string, unknown>) => unknown,
  failure: (code: string, message: string) => unknown,
) {
  type Upload = { uploadId: string; name: string; chunks: number; data: Map<number, string> };
  const chunkBytes = options.chunkBytes ?? 4;
  const uploads = new Map<string, Upload>();
  const state = (u: Upload) => ({
    uploadId: u.uploadId,
    chunkBytes,
    chunks: u.chunks,
    received: [...u.data.keys()].sort((a, b) => a - b),
    complete: u.data.size === u.chunks,
  });
  const byId = (id: string) => [...uploads.values()].find((u) => u.uploadId === id);
  let puts = 0;
  let made = 0;
  return {
    /** The bytes the server assembled from an upload's chunks, as text. */
    assembled: (uploadId: string) => {
      const u = byId(uploadId);
      return u
        ? [...u.data.entries()]
            .sort(([a], [b]) => a - b)
            .map(([, d]) => atob(d))
            .join("")
        : null;
    },
    answer(name: string, raw: Record<string, unknown>): unknown {
      if (name === FILE_TOOL.beginUpload) {
        const args = BeginUploadInput.parse(raw);
        const key = `${args.name}|${args.size}|${args.sha256}`;
        const u = uploads.get(key) ?? {
          uploadId: `up-${++made}`,
          name: args.name,
          chunks: Math.ceil(args.size / chunkBytes),
          data: new Map(),
        };
        uploads.set(key, u);
        return reply(state(u));
      }
      if (name === FILE_TOOL.putChunk) {
        const args = PutChunkInput.parse(raw);
        const u = byId(args.uploadId)!;
        u.data.set(args.index, args.data);
        if (options.dropChunkReplies?.includes(++puts)) throw new Error("network connection lost");
        return reply(state(u));
      }
      if (name === FILE_TOOL.dropUpload) {
        const { uploadId } = DropUploadInput.parse(raw);
        const key = [...uploads.entries()].find(([, u]) => u.uploadId === uploadId)?.[0];
        if (key !== undefined) uploads.delete(key);
        return reply({ uploadId, dropped: key !== undefined });
      }
      if (name === FILE_TOOL.preview) {
        const args = PreviewInput.parse(raw);
        const u = byId(args.uploadId)!;
        const refused = options.previewFailure;
        if (refused) return failure(refused.code, refused.message);
        return reply((options.preview ?? samplePreview)(args.reading ?? {}, u.name));
      }
      const args = ExportInput.parse(raw);
      const fileName = `${args.part}.${args.format}`;
      return reply({
        jobId: args.jobId,
        fileName,
        mimeType:
          args.format === "csv" ? "text/csv" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        size: 9,
        rows: 1,
        partial: false,
        url: `https://files.example/${args.jobId}/${fileName}`,
        expiresAt: Date.UTC(2030, 0, 1, 15, 30),
        ...(args.inline ? { data: btoa("name,gift") } : {}),
      });
    },
  };
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
      people: typeof plan.people === "object" ? plan.people : makePeople(plan.people ?? 3),
      skipped: plan.skipped ?? [],
      composedSoFar: plan.composedSoFar,
      unplaced: plan.unplaced,
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

  /**
   * The people from `offset` (up to `limit`) of a finished job, or of one still composing those it
   * has composed so far; undefined (and the failure) otherwise.
   */
  function pageOf({ jobId, offset, limit }: { jobId: string; offset: number; limit: number }) {
    const job = jobs.get(jobId);
    if (job === undefined) return { failed: failure("unknown_job", "No such job.") };
    const partial = foldOf(job).status !== "completed";
    if (partial && job.composedSoFar === undefined)
      return { failed: failure("job_not_finished", "The job has not completed yet.") };
    const ready = partial ? job.people.slice(0, job.composedSoFar) : job.people;
    const people = ready.slice(offset, offset + limit);
    const end = offset + people.length;
    const head = { jobId, total: ready.length, offset, nextOffset: end < ready.length ? end : null, partial };
    return { job, people, head };
  }

  function getResult(raw: Record<string, unknown>) {
    const page = pageOf(GetJobResultInput.parse(raw));
    if (page.failed) return page.failed;
    const { job, people, head } = page;
    return reply({
      ...head,
      summary: head.partial ? "" : "Gifts found for 3 people.",
      people,
      skipped: job.skipped,
      resultUri: URI.jobResult(job.id),
      ...(head.partial ? {} : { figures: figuresOf(job) }),
    });
  }

  /** The people as table rows, as get_job_result's people are (finished, or composed so far). */
  function getTable(raw: Record<string, unknown>) {
    const page = pageOf(GetJobTableInput.parse(raw));
    return page.failed ?? reply({ ...page.head, rows: page.people.map(tableRowOf) });
  }

  /** The figures a server keeps of a finished result: in all, and by department (the largest spend first). */
  function figuresOf(job: RunningJob): ResultFigures {
    const sum = (people: PersonResult[]) => ({
      people: people.length,
      budget: people.reduce((total, p) => total + p.budget, 0),
      topPicks: people.reduce((total, p) => total + (p.gifts[0]?.price ?? 0), 0),
    });
    const named = [...new Set(job.people.map((p) => p.department ?? ""))];
    const departments = named
      .map((department) => ({ department, ...sum(job.people.filter((p) => (p.department ?? "") === department)) }))
      .sort((a, b) => b.topPicks - a.topPicks);
    return {
      ...sum(job.people),
      withGifts: job.people.filter((p) => p.gifts.length > 0).length,
      skipped: job.skipped.length,
      ...(job.unplaced ? { unplaced: job.unplaced } : {}),
      departments,
    };
  }

  const claimed = new Set(options.claimed);
  /** Claims a job's follow-up: true for the first caller once the job has ended, as the server answers. */
  function claim(raw: Record<string, unknown>) {
    const { jobId } = JobIdInput.parse(raw);
    const job = jobs.get(jobId);
    if (job === undefined) return failure("unknown_job", "No such job.");
    const first = isFinished(foldOf(job).status) && !claimed.has(jobId);
    if (first) claimed.add(jobId);
    return reply({ jobId, claimed: first });
  }

  const setGlobals = (globals: Record<string, unknown>) => {
    Object.assign(openai, globals);
    window.dispatchEvent(new CustomEvent(SET_GLOBALS_EVENT, { detail: { globals } }));
  };
  const files = fakeFiles(options.files ?? {}, reply, failure);
  const answer = (name: string, args: Record<string, unknown>): unknown => {
    if ((Object.values(FILE_TOOL) as string[]).includes(name)) return files.answer(name, args);
    if (name === TOOL.getJobEvents) return getEvents(args);
    if (name === TOOL.cancelJob) return cancel(args);
    if (name === TOOL.getJobResult) return getResult(args);
    if (name === TOOL.getJobTable) return getTable(args);
    if (name === TOOL.claimFollowUp) return claim(args);
    if (name === TOOL.startBulk)
      return StartBulkInput.safeParse(args).success
        ? reply(started(startJob()))
        : failure("invalid_arguments", "Bad input.");
    return failure("invalid_arguments", `Unknown tool ${name}.`);
  };

  const openai: Record<string, unknown> = {
    toolInput: options.toolInput ?? START_INPUT,
    toolOutput: options.toolOutput === undefined || options.toolOutput === "job" ? started(first) : options.toolOutput,
    toolResponseMetadata: options.toolResponseMetadata ?? null,
    widgetState: options.widgetState ?? null,
    theme: options.theme ?? "light",
    displayMode: options.displayMode ?? "inline",
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
    ...(options.noDisplayModes
      ? {}
      : {
          async requestDisplayMode(args: { mode: string }) {
            calls.push({ name: "requestDisplayMode", args, at: Date.now() });
            setGlobals({ displayMode: args.mode });
            return { mode: args.mode };
          },
        }),
    ...(options.noFollowUp
      ? {}
      : {
          async sendFollowUpMessage(args: { prompt: string }) {
            calls.push({ name: "sendFollowUpMessage", args, at: Date.now() });
          },
        }),
    async uploadFile(file: File) {
      calls.push({ name: "uploadFile", args: { name: file.name }, at: Date.now() });
      if (!["image/png", "image/jpeg", "image/webp"].includes(file.type)) throw new Error("Unsupported file type");
      return { fileId: "file-1" };
    },
    ...(options.noOpenExternal
      ? {}
      : {
          openExternal(args: { href: string }) {
            calls.push({ name: "openExternal", args, at: Date.now() });
          },
        }),
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
    /** The bytes the fake server assembled from an upload, as text (null for an unknown upload). */
    assembled: files.assembled,
    uninstall: () => Reflect.deleteProperty(window, "openai"),
  };
}
export type FakeHost = ReturnType<typeof installFakeHost>;
