/**
 * The work of a bulk gift analysis, stage by stage: parse, extract interests, match gifts, compose
 * the result chunk by chunk. Work is done in short slices, one per turn of the event loop across
 * all running jobs, so the server stays responsive and a cancel is seen within milliseconds.
 */
import type { ErrorCode } from "../../../shared/errors.js";
import type { SkippedRow } from "../../../shared/files.js";
import { URI, type StartBulkArgs } from "../../../shared/tools.js";
import { readCsvBatches } from "../../files/read/csv/reader.js";
import { createLedger, type Ledger } from "../../files/read/people/ledger.js";
import { splitInterests } from "../../files/read/people/interests.js";
import { newPerson, readRecord, type Person } from "../../files/read/people/rows.js";
import type { CsvColumns } from "../../files/read/csv/inspect.js";
import type { MatchGifts } from "../../gifts/matcher.js";
import { interestPlaced } from "../../gifts/text-index.js";
import { CHUNK_SIZE, encodeChunk } from "../result-codec.js";
import type { EventDraft } from "../state-machine.js";
import type { StartPlan } from "../start-plan.js";
import { chunkCount, type ResultHead } from "../store.js";
import { createAnswers } from "./answers.js";
import { figuresOf, UnplacedTally } from "./figures.js";
import { countMix, createProgress, type Progress } from "./progress.js";
import type { Share, SliceTurns } from "./slice-turns.js";
import type { JobTexts } from "./texts.js";

const GIFTS_PER_PERSON = 3;
/** The most synchronous work one slice does, in ms, give or take one step. */
const SLICE_MS = 8;
const MEMO_LIMIT = 50_000;
/** Characters csv-parse reads at a time: a few milliseconds of records. */
const PARSE_SLICE_CHARS = 16 * 1024;
/** Answers remembered: the people hold them anyway, so the memo costs little more than its map. */
const ANSWER_LIMIT = 100_000;

/** The job was canceled or the server is closing: stop without another event. */
export class JobStopped extends Error {
  override name = "JobStopped";
}
/** The job cannot finish; becomes `job.failed` with this code, message and hint. */
export class JobFailure extends Error {
  override name = "JobFailure";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

export type BulkRun = StartPlan & {
  jobId: string;
  maxRows: number;
  match: MatchGifts;
  turns: SliceTurns;
  beforeSlice?: (signal: AbortSignal) => Promise<void>;
  texts: JobTexts;
  signal: AbortSignal;
  /** Called in order from 0, not awaiting each. */
  putChunk: (index: number, body: string) => Promise<void>;
  /** Throws JobStopped when the job has ended. */
  emit: (drafts: EventDraft[], head?: ResultHead) => Promise<void>;
};

/** Runs the four stages; throws JobStopped when stopped, JobFailure when the input cannot be analysed. */
export async function runBulkAnalysis(run: BulkRun): Promise<void> {
  const share = run.turns.join();
  try {
    const analysis = new BulkAnalysis(run, share);
    await analysis.parse();
    await analysis.extract();
    await analysis.match();
    await analysis.compose();
  } finally {
    share.leave();
  }
}

class BulkAnalysis {
  // events ready one right after the other (no wait between them) go out in one append: one
  // store write and one wake-up for followers, instead of a second that lands just after the first
  private held: EventDraft[] = [];
  private readonly progress: Progress;
  private readonly people: Person[] = [];
  private readonly skipped: SkippedRow[] = [];
  /** Each row comes with its fields, so that a skipped row keeps its name and department. */
  private readonly ledger: Ledger<string[] | undefined>;
  /** Where the name and department are in those fields: the CSV's columns, or 0 and 1 for `employees`. */
  private who = { name: -1, department: -1, width: 0 };
  private readonly unplaced = new UnplacedTally();
  private readonly mix = countMix();

  constructor(
    private readonly run: BulkRun,
    private readonly share: Share,
  ) {
    this.hold({
      type: "job.started",
      payload: { summary: run.texts.started(run.input.occasion, run.texts.count(run.estimatedRows)) },
    });
    this.progress = createProgress((draft) => this.emit([draft]), share, run.texts, this.mix.mix);
    this.ledger = createLedger<string[] | undefined>((fate, fields) => {
      if ("reason" in fate) this.skipped.push(this.skippedRow(fate.row, run.texts.skipped(fate.reason), fields));
      else {
        this.people.push(fate);
        this.mix.add(fate);
      }
    });
  }

  private skippedRow(row: number, reason: string, fields: string[] | undefined): SkippedRow {
    // a record as wide as the header only: in another, no field is surely the name
    const whole = fields?.length === this.who.width ? fields : undefined;
    const name = whole?.[this.who.name]?.trim() ?? "";
    const department = whole?.[this.who.department]?.trim() ?? "";
    return { row, ...(name && { name }), ...(department && { department }), reason };
  }

  private hold(draft: EventDraft | undefined) {
    if (draft) this.held.push(draft);
  }

  private emit(drafts: EventDraft[], head?: ResultHead) {
    const all = [...this.held, ...drafts];
    this.held = [];
    return this.run.emit(all, head);
  }

  private async turn() {
    const { signal, beforeSlice } = this.run;
    try {
      await this.share.next(signal, beforeSlice && (() => beforeSlice(signal)));
    } catch (error) {
      // an abort rejects the hook (a pause's AbortError, say) or the turn (signal.reason): a stop
      if (signal.aborted) throw new JobStopped();
      throw error;
    }
    if (signal.aborted) throw new JobStopped();
  }

  /**
   * Runs `step` for 0..n-1 in slices of about SLICE_MS, looking at the clock after runs of steps
   * sized to about a quarter millisecond: cheap steps are not slowed, costly ones are timed one by one.
   */
  private async sliced(n: number, step: (i: number) => void) {
    let i = 0;
    let every = 16;
    while (i < n) {
      await this.turn();
      let now = performance.now();
      const until = now + SLICE_MS;
      do {
        const from = now;
        for (const end = Math.min(n, i + every); i < end; i++) step(i);
        now = performance.now();
        if (now - from > 0.5) every = Math.max(1, every >> 1);
        else if (now - from < 0.125 && every < 1024) every <<= 1;
      } while (i < n && now < until);
      // the stage's last report goes with the next stage's, which follows at once
      if (i < n) await this.progress.advance(i);
      else this.hold(this.progress.close(i));
    }
  }

  async parse() {
    const { input, columns } = this.run;
    await this.progress.enter("parse", this.run.estimatedRows);
    if (input.csv !== undefined && columns) await this.parseCsv(input.csv, columns);
    else await this.parseEmployees(input.employees ?? []);
    this.ledger.end();
    this.mix.end();
    // in row order already, unless a staff file's row column says otherwise
    this.skipped.sort((a, b) => a.row - b.row);
  }

  private async parseCsv(csv: string, columns: CsvColumns) {
    const { ledger, run } = this;
    const currency = run.input.currency ?? "USD";
    this.who = { name: columns.name, department: columns.department, width: columns.width };
    let processed = 0;
    await this.turn();
    let until = performance.now() + SLICE_MS;
    // reading a batch is part of the slice; a slice ends between records once its time is up
    const batches = readCsvBatches(csv, {
      separator: columns.separator,
      from: columns.headerRow,
      sliceChars: PARSE_SLICE_CHARS,
    });
    for await (const batch of batches) {
      for (let k = 0; k < batch.length; k++) {
        const r = batch[k];
        if ("reason" in r) ledger.add(r, undefined);
        else ledger.add(readRecord(r.cells, r.row, columns, run.input.budgetPerPerson, currency), r.cells);
        if ((k & 255) === 255 && performance.now() > until) until = await this.pause(processed + k);
      }
      processed += batch.length;
      // the rows settled so far: blank lines at the end of the text are no rows
      if (this.people.length + this.skipped.length > run.maxRows) {
        const { message, hint } = run.texts.tooManyRows(run.texts.count(run.maxRows));
        throw new JobFailure("too_many_rows", message, hint);
      }
      if (performance.now() > until) until = await this.pause(processed);
    }
  }

  /** Reports `processed` rows, waits for the next turn, and says when that slice ends. */
  private async pause(processed: number) {
    await this.progress.advance(processed);
    await this.turn();
    return performance.now() + SLICE_MS;
  }

  private async parseEmployees(employees: NonNullable<StartBulkArgs["employees"]>) {
    const { ledger } = this;
    const budgetPerPerson = this.run.input.budgetPerPerson;
    this.who = { name: 0, department: 1, width: 2 };
    await this.sliced(employees.length, (i) => {
      const e = employees[i];
      const budget = e.budget ?? budgetPerPerson;
      const fields = [e.name, e.department ?? ""];
      if (e.name.trim() === "") ledger.add({ row: i + 1, reason: "it has no name" }, fields);
      else if (!(budget > 0 && Number.isFinite(budget)))
        ledger.add({ row: i + 1, reason: `its budget ${budget} is not a positive number` }, fields);
      else {
        const given = { budgetGiven: e.budget !== undefined, id: e.id ?? "" };
        ledger.add(newPerson(i + 1, e.name.trim(), e.department ?? "", e.interests.join(";"), budget, given), fields);
      }
    });
  }

  async extract() {
    const { people, unplaced } = this;
    await this.progress.enter("extract", people.length);
    // one array per distinct text, shared by its people
    const lists = new Map<string, { interests: string[]; unplaced: string[] }>();
    await this.sliced(people.length, (i) => {
      const p = people[i];
      let list = lists.get(p.interestsText);
      if (list === undefined) {
        if (lists.size >= MEMO_LIMIT) lists.clear();
        const interests = splitInterests(p.interestsText);
        list = { interests, unplaced: interests.filter((interest) => !interestPlaced(interest)) };
        lists.set(p.interestsText, list);
      }
      p.interests = list.interests;
      if (list.unplaced.length > 0) unplaced.add(list.unplaced);
    });
  }

  async match() {
    const { people, run } = this;
    const { occasion, currency = "USD" } = run.input;
    const locale = run.texts.locale;
    await this.progress.enter("match", people.length);
    const answers = createAnswers(run.match, ANSWER_LIMIT);
    await this.sliced(people.length, (i) => {
      const p = people[i];
      p.gifts = answers({
        occasion,
        budget: p.budget,
        interests: p.interests,
        department: p.department ?? undefined,
        count: GIFTS_PER_PERSON,
        locale,
        currency,
      });
    });
  }

  async compose() {
    const { people, run } = this;
    const n = people.length;
    await this.progress.enter("compose", n);
    const chunks = chunkCount({ total: n, chunkSize: CHUNK_SIZE });
    for (let c = 0; c < chunks;) {
      await this.turn();
      const until = performance.now() + SLICE_MS;
      const puts: Promise<void>[] = [];
      do {
        // a local store writes within the call, and that counts towards the slice; one over the
        // network is awaited after it, so its round trips do not stretch the slice
        puts.push(run.putChunk(c, encodeChunk(people, c * CHUNK_SIZE, Math.min(n, (c + 1) * CHUNK_SIZE))));
        c++;
      } while (c < chunks && performance.now() < until);
      await Promise.all(puts);
      if (c < chunks) await this.progress.advance(Math.min(n, c * CHUNK_SIZE));
      else this.hold(this.progress.close(n)); // goes with job.completed
    }
    await this.complete();
  }

  private async complete() {
    const { people, skipped, run } = this;
    const { occasion, budgetPerPerson, currency = "USD" } = run.input;
    const figures = { currency, ...figuresOf(people, skipped.length, this.unplaced.result()) };
    const summary = run.texts.summary({ occasion, ...figures });
    const total = people.length;
    await this.emit(
      [{ type: "job.completed", payload: { summary, resultResourceId: URI.jobResult(run.jobId), resultCount: total } }],
      {
        occasion,
        budgetPerPerson,
        currency,
        locale: run.texts.locale,
        summary,
        total,
        chunkSize: CHUNK_SIZE,
        skipped,
        figures,
      },
    );
  }
}
