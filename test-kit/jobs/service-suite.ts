/**
 * The job service's behaviour, as one suite that every store runs (memory, sqlite and redis tests):
 * a job's whole life and its event history, long polls, cancel, the concurrency queue, expiry,
 * access scoping, validation and result pages. The 100,000-row run is for the one store given
 * `heavy`; the others' jobs that must still be running when canceled or closed are merely long.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { JobEventNotice } from "../../server/jobs/job-log.js";
import type { JobService } from "../../server/jobs/job-service.js";
import type { CreateExecutor } from "../../server/jobs/executor.js";
import { createJobService, type JobServiceOptions } from "../../server/jobs/job-service.js";
import type { JobStore } from "../../server/jobs/store.js";
import { employeeCsv } from "../employee-csv.js";
import { expectJobHistory } from "../job-history.js";
import { describeServiceData } from "./service-data-suite.js";
import { ALICE, BOB, collectPeople, history, settle, testMatch } from "./service-reads.js";

const START = { occasion: "holiday", budgetPerPerson: 50 };
/** 100,000 rows, over 5 MB. */
const bigCsv = () => employeeCsv(100_000);
/** 30,000 rows: a job that runs for some hundreds of milliseconds, long after a test's next steps. */
const longCsv = () => employeeCsv(30_000);

/** The first notice that passes `test`. */
function nextNotice(service: JobService, test: (n: JobEventNotice) => boolean): Promise<JobEventNotice> {
  return new Promise((resolve) => {
    const off = service.onEvent((n) => {
      if (test(n)) {
        off();
        resolve(n);
      }
    });
  });
}

/** A put of one result chunk kept waiting: `reached` once the job calls it, on until `release()`. */
type HeldPut = { reached: Promise<void>; release: () => void };

/**
 * `store` with slow puts of result chunks, any of which can be held. Each put takes longer than a
 * slice of a job's work (8 ms), as a write to a slow local disk would, so the compose stage stores
 * one chunk per slice and reports its progress between chunks. Without that, a machine that
 * composes faster than a slice stores every chunk in one slice and the stage reports nothing until
 * `job.completed`: progress is only reported when the job's whole percentage moves, and never at 100.
 */
function slowChunks(store: JobStore) {
  const held = new Map<number, { reached: () => void; released: Promise<void> }>();
  const putResultChunk: JobStore["putResultChunk"] = (jobId, index, body) => {
    const until = performance.now() + 10;
    while (performance.now() < until); // the write, inside the slice that composed the chunk
    const hold = held.get(index);
    if (hold === undefined) return store.putResultChunk(jobId, index, body);
    hold.reached();
    return hold.released.then(() => store.putResultChunk(jobId, index, body));
  };
  return {
    store: { ...store, putResultChunk },
    /** Holds the put of chunk `index`, and so the job, once it comes to it. */
    hold(index: number): HeldPut {
      let reached!: () => void;
      let release!: () => void;
      const put = {
        reached: new Promise<void>((r) => (reached = r)),
        released: new Promise<void>((r) => (release = r)),
      };
      held.set(index, { reached, released: put.released });
      return { reached: put.reached, release };
    },
  };
}

export type JobServiceSuiteOptions = {
  /** Also run a 100,000-row job to the end, watching the event loop turn meanwhile (one store is enough). */
  heavy?: boolean;
  /**
   * Where each service runs its jobs, a new one per service (in-process when absent). Jobs it
   * queues for workers that other processes share wait there when the service closes.
   */
  executor?: () => { create: CreateExecutor; shared: boolean };
};

/** The suite for the store `makeStore` opens, a fresh one on every call. */
export function describeJobService(
  name: string,
  makeStore: () => JobStore,
  { heavy = false, executor }: JobServiceSuiteOptions = {},
): void {
  describe(`job service on the ${name} store`, () => {
    const open: JobService[] = [];
    const make = (options: Partial<JobServiceOptions> = {}) => {
      const service = createJobService({
        match: testMatch,
        executor: executor?.().create,
        ...options,
        // a store of the test's own, or a new one (none opened for nothing)
        store: options.store ?? makeStore(),
      });
      open.push(service);
      return service;
    };
    afterEach(async () => {
      await Promise.all(open.splice(0).map((s) => s.close()));
    });

    it("pages the people composed so far while the job runs, and the same people after it ends", async () => {
      const chunks = slowChunks(makeStore());
      const service = make({ store: chunks.store });
      let reported = 0; // the people the compose stage's progress has reported so far
      service.onEvent(({ event }) => {
        if (event.type === "job.progress" && event.payload.stage === "compose") reported = event.payload.processed ?? 0;
      });
      // the job waits, still running, before it stores its first chunk and again before its third
      const first = chunks.hold(0);
      const third = chunks.hold(2);
      try {
        const started = await service.start({ ...START, csv: employeeCsv(6_000) }, ALICE);
        if (!started.ok) throw new Error(started.error.message);
        const { jobId } = started.value;
        await first.reached;
        const before = await service.getResult({ jobId, offset: 0, limit: 50 }, ALICE);
        expect(before).toMatchObject({ ok: true, value: { partial: true, total: 0, people: [], nextOffset: null } });
        first.release();
        await third.reached;
        const partial = await service.getResult({ jobId, offset: 0, limit: 500 }, ALICE);
        if (!partial.ok) throw new Error(partial.error.message);
        expect(partial.value).toMatchObject({ partial: true, offset: 0, nextOffset: 500, skipped: [] });
        // as many people as the progress has reported: the two chunks stored
        expect(reported).toBe(2_000);
        expect(partial.value.total).toBe(reported);
        expect(partial.value.people.map((p) => p.row)).toEqual(Array.from({ length: 500 }, (_, i) => i + 2));
        const later = await service.getResult({ jobId, offset: 500, limit: 500 }, ALICE);
        expect(later.ok && later.value.people.map((p) => p.row)).toEqual(
          Array.from({ length: 500 }, (_, i) => 502 + i),
        );
        third.release();
        await settle(service, jobId);
        const final = await service.getResult({ jobId, offset: 0, limit: 500 }, ALICE);
        if (!final.ok) throw new Error(final.error.message);
        expect(final.value.partial).toBe(false);
        // what was shown while it ran is exactly what the finished result holds
        expect(final.value.people).toEqual(partial.value.people);
        // the finished result in figures, for a view to word in its own language
        const all = await collectPeople(service, jobId);
        const { departments, ...totals } = final.value.figures ?? {};
        expect(totals).toEqual({
          currency: "USD",
          people: 6_000,
          withGifts: all.filter((p) => p.gifts.length > 0).length,
          skipped: 0,
          topPicks: Math.round(all.reduce((sum, p) => sum + (p.gifts[0]?.price ?? 0), 0) * 100) / 100,
          budget: all.reduce((sum, p) => sum + p.budget, 0),
        });
        // and by department, which add up to the same
        const ofDepartment = (d: string) => all.filter((p) => (p.department ?? "") === d);
        expect(departments?.length).toBeGreaterThan(1);
        for (const d of departments ?? []) expect(d.people, d.department).toBe(ofDepartment(d.department).length);
        expect(departments?.reduce((sum, d) => sum + d.people, 0)).toBe(6_000);
      } finally {
        // a failed check must not leave the job waiting, nor the service's close with it
        first.release();
        third.release();
      }
    });

    it("answers start at once, then runs every stage to a result", async () => {
      const service = make();
      const started = await service.start({ ...START, csv: employeeCsv(50) }, ALICE);
      if (!started.ok) throw new Error(started.error.message);
      const { jobId, status, stages, resultUri } = started.value;
      expect(jobId).toMatch(/^job_[A-Za-z0-9_-]{22}$/);
      expect(status).toBe("pending");
      expect(stages.map((s) => s.id)).toEqual(["parse", "extract", "match", "compose"]);
      expect(stages[0].label).toBe("Parsing the employee list");
      expect(resultUri).toBe(`gifts://jobs/${jobId}/result`);

      const view = await settle(service, jobId);
      expect(view.status).toBe("completed");
      expect(view.percentage).toBe(100);
      expect(view.resultCount).toBe(50);
      const events = await history(service, jobId);
      const { terminal, stages: seen } = expectJobHistory(events);
      expect(terminal.type).toBe("job.completed");
      expect(seen).toEqual(["parse", "extract", "match", "compose"]);
      expect(events[0].type === "job.created" && events[0].payload.stages).toEqual(stages);
      expect(events.every((e) => e.eventId === `${jobId}:${e.seq}`)).toBe(true);

      const page = await service.getResult({ jobId, offset: 0, limit: 10 }, ALICE);
      if (!page.ok) throw new Error(page.error.message);
      expect(page.value).toMatchObject({ jobId, total: 50, offset: 0, nextOffset: 10, resultUri, skipped: [] });
      const first = page.value.people[0];
      expect(first).toMatchObject({
        row: 2,
        name: "Ada Lovelace 0",
        department: "Engineering",
        interests: ["coffee", "hiking"],
        budget: 50,
      });
      expect(first.gifts.map((g) => g.id)).toEqual(["beans", "boots", "mug"]);
      expect(first.gifts.every((g) => g.price <= first.budget)).toBe(true);
      const full = await service.readResult(jobId, ALICE);
      if (!full.ok) throw new Error(full.error.message);
      expect(full.value.people).toHaveLength(50);
      expect(full.value.people.slice(0, 10)).toEqual(page.value.people);
      expect(full.value).toMatchObject({ jobId, occasion: "holiday", budgetPerPerson: 50 });
    });

    it("publishes every appended event with its owner and the view after it", async () => {
      const service = make();
      const notices: JobEventNotice[] = [];
      service.onEvent((n) => notices.push(n));
      const started = await service.start({ ...START, csv: employeeCsv(20) }, ALICE);
      if (!started.ok) throw new Error(started.error.message);
      await settle(service, started.value.jobId);
      const events = await history(service, started.value.jobId);
      const mine = notices.filter((n) => n.event.jobId === started.value.jobId);
      expect(mine.map((n) => n.event)).toEqual(events);
      expect(mine.every((n) => n.owner.subject === "alice" && n.owner.sessionId === "s-alice")).toBe(true);
      expect(mine.every((n) => n.fold.lastSeq === n.event.seq)).toBe(true);
      expect(mine[mine.length - 1].fold.status).toBe("completed");
    });

    it("reports skipped rows by the row number a spreadsheet shows", async () => {
      const service = make();
      const csv = [
        "Name , DEPARTMENT,interests,Budget",
        '"Smith, Jane",Sales,"coffee; tea",30',
        ",Sales,coffee,20",
        "Bob,Support,music,cheap",
        '"Multi\nLine Name",R&D,books|music,',
        "Too,many,fields,10,extra",
        "Ana,Sales,yoga,-5",
      ].join("\r\n");
      const started = await service.start({ ...START, csv }, ALICE);
      if (!started.ok) throw new Error(started.error.message);
      const view = await settle(service, started.value.jobId);
      expect(view.status).toBe("completed");
      const page = await service.getResult({ jobId: started.value.jobId, offset: 0, limit: 50 }, ALICE);
      if (!page.ok) throw new Error(page.error.message);
      expect(page.value.people.map((p) => [p.row, p.name, p.budget])).toEqual([
        [2, "Smith, Jane", 30],
        [5, "Multi\nLine Name", 50],
      ]);
      // with the name and department each holds, where its fields line up with the header
      expect(page.value.skipped).toEqual([
        { row: 3, department: "Sales", reason: "it has no name" },
        { row: 4, name: "Bob", department: "Support", reason: 'its budget "cheap" is not a positive number' },
        { row: 6, reason: "it has 5 fields but the header has 4; put quotes around values that contain commas" },
        { row: 7, name: "Ana", department: "Sales", reason: 'its budget "-5" is not a positive number' },
      ]);
      expect(page.value.summary).toContain("4 rows were skipped");
    });

    it("takes employees as a list instead of a CSV", async () => {
      const service = make();
      const employees = [
        { name: "Kim", department: "Sales", interests: ["coffee", "Coffee", " tea "], budget: 16 },
        { name: "  ", interests: [] },
        { name: "Lee", interests: ["music"] },
      ];
      const started = await service.start({ ...START, employees }, ALICE);
      if (!started.ok) throw new Error(started.error.message);
      await settle(service, started.value.jobId);
      const result = await service.readResult(started.value.jobId, ALICE);
      if (!result.ok) throw new Error(result.error.message);
      expect(result.value.people.map((p) => [p.row, p.name, p.department, p.interests, p.budget])).toEqual([
        [1, "Kim", "Sales", ["coffee", "tea"], 16],
        [3, "Lee", null, ["music"], 50],
      ]);
      expect(result.value.people[0].gifts.map((g) => g.id)).toEqual(["mug", "card"]);
      expect(result.value.skipped).toEqual([{ row: 2, reason: "it has no name" }]);
    });

    it("takes an empty employees list beside a CSV as not given (forms that send every field)", async () => {
      const service = make();
      const started = await service.start({ ...START, csv: employeeCsv(2), employees: [] }, ALICE);
      if (!started.ok) throw new Error(started.error.message);
      await settle(service, started.value.jobId);
      const result = await service.readResult(started.value.jobId, ALICE);
      if (!result.ok) throw new Error(result.error.message);
      expect(result.value.people).toHaveLength(2);
    });

    it.each([
      ["neither csv nor employees", {}, "invalid_arguments"],
      [
        "both csv and employees",
        { csv: employeeCsv(1), employees: [{ name: "A", interests: [] }] },
        "invalid_arguments",
      ],
      ["an empty CSV", { csv: "" }, "invalid_csv"],
      ["a CSV with only a BOM and blank lines", { csv: "\uFEFF\r\n\r\n" }, "invalid_csv"],
      ["a CSV without an interests column", { csv: "name,department\nA,B\n" }, "invalid_csv"],
      ["a CSV with a header only", { csv: "name,department,interests\n" }, "invalid_csv"],
      ["an empty employees list", { employees: [] }, "invalid_arguments"],
    ])("refuses %s and creates no job", async (_name, input, code) => {
      const service = make();
      const notices: JobEventNotice[] = [];
      service.onEvent((n) => notices.push(n));
      const r = await service.start({ ...START, ...input }, ALICE);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe(code);
      expect(r.error.message.length).toBeGreaterThan(10);
      expect(notices).toEqual([]);
    });

    it("names the missing column", async () => {
      const r = await make().start({ ...START, csv: "Name,Colour,Size\nA,B,C\n" }, ALICE);
      expect(r).toMatchObject({ ok: false, error: { code: "invalid_csv" } });
      if (r.ok) return;
      expect(r.error.message).toBe('The CSV has no "interests" column: its header has "Name", "Colour", "Size".');
    });

    it("enforces the size and row limits with their own errors", async () => {
      const service = make({ limits: { maxCsvBytes: 2_000, maxRows: 30 } });
      const tooBig = await service.start({ ...START, csv: employeeCsv(200) }, ALICE);
      expect(tooBig).toMatchObject({ ok: false, error: { code: "input_too_large" } });
      const tooMany = await service.start({ ...START, csv: employeeCsv(31) }, ALICE);
      expect(tooMany).toMatchObject({ ok: false, error: { code: "too_many_rows" } });
      if (!tooMany.ok) expect(tooMany.error.message).toContain("at most 30");
      const list = Array.from({ length: 31 }, (_, i) => ({ name: `P${i}`, interests: [] }));
      expect(await service.start({ ...START, employees: list }, ALICE)).toMatchObject({
        ok: false,
        error: { code: "too_many_rows" },
      });
      expect((await service.start({ ...START, csv: employeeCsv(30) }, ALICE)).ok).toBe(true);
    });

    it("accepts a CSV of 5 MB under the default limits", async () => {
      const csv = bigCsv();
      expect(Buffer.byteLength(csv)).toBeGreaterThan(5 * 1024 * 1024);
      const r = await make().start({ ...START, csv }, ALICE);
      expect(r.ok).toBe(true);
    });

    if (heavy)
      it("runs 100,000 rows with about a hundred progress events and every stage, the event loop turning meanwhile", async () => {
        const service = make();
        const started = await service.start({ ...START, csv: bigCsv() }, ALICE);
        if (!started.ok) throw new Error(started.error.message);
        let ticks = 0;
        let running = true;
        const tick = () => {
          ticks++;
          if (running) setTimeout(tick, 0);
        };
        setTimeout(tick, 0);
        const view = await settle(service, started.value.jobId);
        running = false;
        // a job that held the loop from start to end would let the timer fire only once or twice
        expect(ticks).toBeGreaterThan(20);
        expect(view.status).toBe("completed");
        expect(view.resultCount).toBe(100_000);
        const { progress, stages } = expectJobHistory(await history(service, started.value.jobId));
        expect(stages).toEqual(["parse", "extract", "match", "compose"]);
        expect(progress.length).toBeGreaterThan(20);
        expect(progress.length).toBeLessThanOrEqual(104);
        expect(progress.filter((p) => p.etaSeconds !== undefined).length).toBeGreaterThan(10);
        const last = progress[progress.length - 1];
        expect(last.total).toBe(100_000);
      });

    it("completes a 10,000-row job and pages through all of it", async () => {
      const service = make();
      const started = await service.start({ ...START, csv: employeeCsv(10_000, { crlf: true }) }, ALICE);
      if (!started.ok) throw new Error(started.error.message);
      expect((await settle(service, started.value.jobId)).status).toBe("completed");
      const rows: number[] = [];
      for (let offset: number | null = 0; offset !== null;) {
        const page = await service.getResult({ jobId: started.value.jobId, offset, limit: 500 }, ALICE);
        if (!page.ok) throw new Error(page.error.message);
        rows.push(...page.value.people.map((p) => p.row));
        offset = page.value.nextOffset;
      }
      expect(rows).toEqual(Array.from({ length: 10_000 }, (_, i) => i + 2));
      // a page across the boundary between two stored chunks
      const page = await service.getResult({ jobId: started.value.jobId, offset: 4_998, limit: 4 }, ALICE);
      if (!page.ok) throw new Error(page.error.message);
      expect(page.value.people.map((p) => p.row)).toEqual([5_000, 5_001, 5_002, 5_003]);
      expect(page.value.nextOffset).toBe(5_002);
    });

    it("hands out skipped rows with the page they fall in, each once", async () => {
      const lines = ["name,department,interests"];
      for (let i = 0; i < 30; i++) lines.push(i % 4 === 1 ? `,Sales,coffee` : `P${i},Sales,coffee`);
      const service = make();
      const started = await service.start({ ...START, csv: lines.join("\n") }, ALICE);
      if (!started.ok) throw new Error(started.error.message);
      await settle(service, started.value.jobId);
      const seen: number[] = [];
      const people: number[] = [];
      for (let offset: number | null = 0; offset !== null;) {
        const page = await service.getResult({ jobId: started.value.jobId, offset, limit: 7 }, ALICE);
        if (!page.ok) throw new Error(page.error.message);
        seen.push(...page.value.skipped.map((s) => s.row));
        people.push(...page.value.people.map((p) => p.row));
        offset = page.value.nextOffset;
      }
      expect(seen).toEqual([3, 7, 11, 15, 19, 23, 27, 31]);
      expect(people).toHaveLength(22);
    });

    it("wakes a long poll as soon as an event arrives", async () => {
      const service = make({ limits: { maxConcurrentJobs: 1 } });
      const blocker = await service.start({ ...START, csv: longCsv() }, ALICE);
      const waiting = await service.start({ ...START, csv: employeeCsv(5) }, ALICE);
      if (!blocker.ok || !waiting.ok) throw new Error("start failed");
      const jobId = waiting.value.jobId;
      const poll = service.getEvents({ jobId, afterSeq: 1, waitMs: 25_000, limit: 100 }, ALICE);
      await new Promise((r) => setTimeout(r, 20));
      await service.cancel({ jobId }, ALICE);
      const r = await poll;
      if (!r.ok) throw new Error(r.error.message);
      // had the poll not been woken, it would have ended at its timeout with no events
      expect(r.value.events.map((e) => e.type)).toEqual(["job.canceled"]);
      expect(r.value).toMatchObject({ status: "canceled", nextSeq: 2, done: true });
      await service.cancel({ jobId: blocker.value.jobId }, ALICE);
    });

    it("ends a long poll when its signal aborts", async () => {
      const service = make({ limits: { maxConcurrentJobs: 1 } });
      const blocker = await service.start({ ...START, csv: longCsv() }, ALICE);
      const waiting = await service.start({ ...START, csv: employeeCsv(5) }, ALICE);
      if (!blocker.ok || !waiting.ok) throw new Error("start failed");
      const controller = new AbortController();
      const poll = service.getEvents(
        { jobId: waiting.value.jobId, afterSeq: 1, waitMs: 25_000, limit: 100 },
        ALICE,
        controller.signal,
      );
      setTimeout(() => controller.abort(), 10);
      const r = await poll;
      expect(r).toMatchObject({ ok: true, value: { events: [], nextSeq: 1, done: false, status: "pending" } });
      await service.cancel({ jobId: blocker.value.jobId }, ALICE);
    });

    it("returns what is there when the job has ended, without waiting", async () => {
      const service = make();
      const started = await service.start({ ...START, csv: employeeCsv(3) }, ALICE);
      if (!started.ok) throw new Error(started.error.message);
      const view = await settle(service, started.value.jobId);
      const r = await service.getEvents(
        { jobId: started.value.jobId, afterSeq: view.lastSeq, waitMs: 25_000, limit: 10 },
        ALICE,
      );
      expect(r).toMatchObject({
        ok: true,
        value: { events: [], nextSeq: view.lastSeq, done: true, status: "completed" },
      });
      const some = await service.getEvents({ jobId: started.value.jobId, afterSeq: 0, waitMs: 0, limit: 2 }, ALICE);
      expect(some).toMatchObject({ ok: true, value: { nextSeq: 2, done: false, status: "completed" } });
    });

    it("cancels a running job promptly, once", async () => {
      const service = make();
      const started = await service.start({ ...START, csv: longCsv() }, ALICE);
      if (!started.ok) throw new Error(started.error.message);
      const { jobId } = started.value;
      await nextNotice(
        service,
        (n) => n.event.jobId === jobId && n.event.type === "job.progress" && n.event.payload.percentage > 5,
      );
      const first = await service.cancel({ jobId }, ALICE);
      expect(first).toEqual({ ok: true, value: { jobId, status: "canceled", changed: true } });
      const again = await service.cancel({ jobId }, ALICE);
      expect(again).toEqual({ ok: true, value: { jobId, status: "canceled", changed: false } });
      const before = await history(service, jobId);
      await new Promise((r) => setTimeout(r, 100)); // time for a runner that ignored the cancel to emit
      const after = await history(service, jobId);
      expect(after).toEqual(before);
      const { terminal } = expectJobHistory(after);
      expect(terminal.type).toBe("job.canceled");
      expect(await service.getResult({ jobId, offset: 0, limit: 5 }, ALICE)).toMatchObject({
        ok: false,
        error: { code: "job_not_finished" },
      });
    });

    it("says a finished job was not changed by cancel", async () => {
      const service = make();
      const started = await service.start({ ...START, csv: employeeCsv(3) }, ALICE);
      if (!started.ok) throw new Error(started.error.message);
      await settle(service, started.value.jobId);
      const r = await service.cancel({ jobId: started.value.jobId }, ALICE);
      expect(r).toEqual({ ok: true, value: { jobId: started.value.jobId, status: "completed", changed: false } });
    });

    it("queues jobs beyond the concurrency limit as pending, first come first served", async () => {
      const service = make({ limits: { maxConcurrentJobs: 1 } });
      const order: string[] = [];
      service.onEvent((n) => n.event.type === "job.started" && order.push(n.event.jobId));
      const firstStarted = nextNotice(service, (n) => n.event.type === "job.started");
      const ids: string[] = [];
      for (const csv of [longCsv(), employeeCsv(10), employeeCsv(10)]) {
        const r = await service.start({ ...START, csv }, ALICE);
        if (!r.ok) throw new Error(r.error.message);
        ids.push(r.value.jobId);
      }
      expect((await firstStarted).event.jobId).toBe(ids[0]);
      const waiting = await service.getResult({ jobId: ids[2], offset: 0, limit: 1 }, ALICE);
      expect(waiting).toMatchObject({ ok: false, error: { code: "job_not_finished" } });
      if (!waiting.ok) expect(waiting.error.message).toContain("waiting to start");
      for (const id of ids) expect((await settle(service, id)).status).toBe("completed");
      expect(order).toEqual(ids);
    });

    it("lets a pending job be canceled without ever starting", async () => {
      const service = make({ limits: { maxConcurrentJobs: 1 } });
      const blocker = await service.start({ ...START, csv: longCsv() }, ALICE);
      const queued = await service.start({ ...START, csv: employeeCsv(10) }, ALICE);
      if (!blocker.ok || !queued.ok) throw new Error("start failed");
      expect(await service.cancel({ jobId: queued.value.jobId }, ALICE)).toMatchObject({
        ok: true,
        value: { changed: true },
      });
      await service.cancel({ jobId: blocker.value.jobId }, ALICE);
      await new Promise((r) => setTimeout(r, 50)); // the freed slot must not start the canceled job
      const events = await history(service, queued.value.jobId);
      expect(events.map((e) => e.type)).toEqual(["job.created", "job.canceled"]);
    });

    it("expires finished jobs after the retention time", async () => {
      let clock = Date.parse("2026-03-01T12:00:00Z");
      const store = makeStore();
      const service = make({ store, now: () => clock, limits: { retentionMs: 60_000, sweepIntervalMs: 10 } });
      const started = await service.start({ ...START, csv: employeeCsv(3) }, ALICE);
      if (!started.ok) throw new Error(started.error.message);
      const { jobId } = started.value;
      const view = await settle(service, jobId);
      expect(view.createdAt).toBe("2026-03-01T12:00:00.000Z");
      clock += 59_000;
      expect((await service.getEvents({ jobId, afterSeq: 0, waitMs: 0, limit: 10 }, ALICE)).ok).toBe(true);
      expect(await store.getJob(jobId)).toBeDefined();
      clock += 2_000;
      const gone = await service.getEvents({ jobId, afterSeq: 0, waitMs: 0, limit: 10 }, ALICE);
      expect(gone).toMatchObject({ ok: false, error: { code: "unknown_job" } });
      expect(await service.readResult(jobId, ALICE)).toMatchObject({ ok: false, error: { code: "unknown_job" } });
      await vi.waitFor(async () => expect(await store.getJob(jobId)).toBeUndefined());
      // and nothing else of it is left
      expect(await store.readEvents(jobId, 0, 10)).toEqual([]);
      expect(await store.readResultHead(jobId)).toBeUndefined();
      expect(await store.readChunks(jobId, 0, 10)).toEqual([]);
      expect(await store.readInput(jobId)).toBeUndefined();
    });

    it("shows a job to its owner only, and answers others as if it did not exist", async () => {
      const service = make();
      const started = await service.start({ ...START, csv: employeeCsv(3) }, ALICE);
      if (!started.ok) throw new Error(started.error.message);
      const { jobId } = started.value;
      await settle(service, jobId);
      const missing = await service.getEvents({ jobId: "job_nope", afterSeq: 0, waitMs: 0, limit: 1 }, ALICE);
      expect(missing).toEqual({
        ok: false,
        error: {
          code: "unknown_job",
          message: "No job job_nope: it may have expired; start a new analysis with start_bulk_gift_analysis.",
        },
      });
      const other = { subject: BOB.subject, sessionId: ALICE.sessionId };
      const answers = [
        await service.getEvents({ jobId, afterSeq: 0, waitMs: 0, limit: 1 }, other),
        await service.getResult({ jobId, offset: 0, limit: 1 }, other),
        await service.readResult(jobId, other),
        await service.cancel({ jobId }, other),
        await service.waitFor({ jobId, timeoutMs: 0 }, other, () => {}),
      ];
      for (const a of answers)
        expect(a).toEqual({
          ok: false,
          error: {
            code: "unknown_job",
            message: `No job ${jobId}: it may have expired; start a new analysis with start_bulk_gift_analysis.`,
          },
        });
      // same subject from another session is the same person
      expect((await service.getEvents({ jobId, afterSeq: 0, waitMs: 0, limit: 1 }, { subject: "alice" })).ok).toBe(
        true,
      );
    });

    it("waits for the end, reporting each change of the view", async () => {
      const service = make();
      const started = await service.start({ ...START, csv: employeeCsv(20_000) }, ALICE);
      if (!started.ok) throw new Error(started.error.message);
      const seen: string[] = [];
      const r = await service.waitFor({ jobId: started.value.jobId, timeoutMs: 60_000 }, ALICE, (v) =>
        seen.push(v.updatedAt ?? ""),
      );
      expect(r).toMatchObject({ ok: true, value: { status: "completed", done: true, view: { percentage: 100 } } });
      expect(seen.length).toBeGreaterThan(3);
      expect(seen).toEqual([...seen].sort());
      if (r.ok) expect(seen[seen.length - 1]).toBe(r.value.view.updatedAt);
      const timedOut = make({ limits: { maxConcurrentJobs: 1 } });
      const a = await timedOut.start({ ...START, csv: longCsv() }, ALICE);
      const b = await timedOut.start({ ...START, csv: employeeCsv(2) }, ALICE);
      if (!a.ok || !b.ok) throw new Error("start failed");
      const short = await timedOut.waitFor({ jobId: b.value.jobId, timeoutMs: 30 }, ALICE, () => {});
      expect(short).toMatchObject({ ok: true, value: { status: "pending", done: false } });
    });

    it("fails the job with a retryable error when the work throws, and reports the error itself", async () => {
      const reported: [unknown, string][] = [];
      const service = make({
        match: () => {
          throw new Error("catalog unavailable");
        },
        onError: (error, context) => reported.push([error, context]),
      });
      const started = await service.start({ ...START, csv: employeeCsv(10) }, ALICE);
      if (!started.ok) throw new Error(started.error.message);
      const view = await settle(service, started.value.jobId);
      expect(view.status).toBe("failed");
      expect(view.error).toMatchObject({ code: "internal", retryable: true });
      // the caller gets a sentence, never the internals; the server's log gets the error
      expect(view.error?.message).toBe("The analysis stopped on an unexpected error.");
      expect(reported).toEqual([[new Error("catalog unavailable"), `running job ${started.value.jobId}`]]);
      expect(expectJobHistory(await history(service, started.value.jobId)).terminal.type).toBe("job.failed");
    });

    it("refuses at once a CSV whose stray quotes inside unquoted fields would fool a quick count", async () => {
      // the count before the job follows quotes as the parser does (the parse stage checks again)
      const lines = [
        "name,department,interests",
        'Ann "Jr,Sales,coffee',
        ...Array.from({ length: 5 }, (_, i) => `P${i},Sales,tea`),
        'Bo "Sr,Sales,tea',
      ];
      const service = make({ limits: { maxRows: 3 } });
      const started = await service.start({ ...START, csv: lines.join("\n") }, ALICE);
      expect(started).toMatchObject({
        ok: false,
        error: { code: "too_many_rows", message: "The CSV has more than 3 rows; one analysis takes at most 3." },
      });
    });

    it("ends running and waiting jobs as interrupted when closed", async () => {
      const store = makeStore();
      const run = executor?.();
      const service = createJobService({
        store,
        match: testMatch,
        limits: { maxConcurrentJobs: 1 },
        executor: run?.create,
      });
      const running = await service.start({ ...START, csv: longCsv() }, ALICE);
      const waiting = await service.start({ ...START, csv: employeeCsv(3) }, ALICE);
      if (!running.ok || !waiting.ok) throw new Error("start failed");
      await nextNotice(service, (n) => n.event.type === "job.progress");
      const poll = service.getEvents({ jobId: waiting.value.jobId, afterSeq: 1, waitMs: 25_000, limit: 10 }, ALICE);
      const ends: string[] = [];
      service.onEvent((n) => n.event.type !== "job.progress" && ends.push(`${n.event.jobId}:${n.event.type}`));
      await service.close();
      if (run?.shared) {
        // the waiting job stays queued for the workers of the other processes
        expect(ends).toEqual([`${running.value.jobId}:job.failed`]);
        expect(await poll).toMatchObject({ ok: true, value: { status: "pending", done: false } });
        return;
      }
      expect(ends).toEqual([`${running.value.jobId}:job.failed`, `${waiting.value.jobId}:job.failed`]);
      const r = await poll;
      expect(r).toMatchObject({ ok: true, value: { status: "failed", done: true } });
      if (r.ok)
        expect(r.value.events[0]).toMatchObject({
          type: "job.failed",
          payload: { code: "interrupted", retryable: true },
        });
    });
  });
  describeServiceData(name, makeStore);
}
