/**
 * Nothing lost silently: every row of a messy file (blank lines, repeats, no names, bad budgets,
 * a row with too many fields, an unclosed quote, a sheet with gaps) is a person or a skipped row,
 * and the job that reads the file's canonical CSV ends with exactly the people and the skipped rows
 * the preview promised. Also: the header past title rows, columns chosen by hand, and the limits.
 */
import type { StaffPreview } from "../../../shared/files.js";
import { readInputLimits, resolveLimits } from "../../limits.js";
import { planStart } from "../../jobs/start-plan.js";
import { runToResult } from "../../../test-kit/jobs/service-reads.js";
import { delimited, encodeText, staffXlsx } from "../../../test-kit/staff-files.js";
import { readStaffFile } from "./staff-file.js";

const limits = resolveLimits();

async function read(bytes: Uint8Array, name: string, reading = {}, within = limits) {
  const r = await readStaffFile(bytes, name, reading, within);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Runs the job on the canonical CSV: its result's head, every person and every skipped row. */
async function runJob(csv: string) {
  const { head, people, skipped } = await runToResult({ csv });
  return { ...head, people, skipped };
}

/** The preview's promise against the job's result: the same people, the same skipped rows, nobody lost. */
async function expectSameLedger(preview: StaffPreview, csv: string) {
  expect(preview.rows).toBe(preview.people + preview.skippedCount);
  const result = await runJob(csv);
  expect(result.total).toBe(preview.people);
  // the job's skipped rows keep their name and department too, for HR's file
  expect(result.skipped.map(({ row, reason }) => ({ row, reason }))).toEqual(preview.skipped);
  expect(result.people.slice(0, preview.sample.length).map((p) => [p.row, p.name])).toEqual(
    preview.sample.map((s) => [s.row, s.name.trim()]),
  );
  expect(result.summary).toContain(`${preview.skippedCount} rows were skipped`);
}

describe("nothing lost silently", () => {
  it("a messy CSV: every row a person or a skipped row, and the job skips the same rows for the same reasons", async () => {
    const text = [
      "Staff export (HR)", // a title line above the header
      "",
      "Name;Team;Likes;Budget",
      "Kim;Sales;coffee|tea;30",
      "", // empty between rows
      ";Sales;coffee;20", // no name
      "Lee;Ops;music;cheap", // bad budget
      "KIM ;sales; Coffee|tea ;30", // a repeat of row 4: every field the same, case and spaces aside
      "Park;Ops;books;10;extra", // too many fields
      " ; ; ; ", // only blanks
      "Choi;R&D;hiking;$1,250",
      '"Moon;Ops;tea;5', // an unclosed quote to the end
      "",
      "",
    ].join("\r\n");
    const { preview, csv } = await read(encodeText(text, "utf-8"), "messy.csv");
    expect(preview).toMatchObject({
      headers: ["Name", "Team", "Likes", "Budget"],
      rows: 9,
      people: 2,
      skippedCount: 7,
    });
    expect(preview.skipped).toEqual([
      { row: 5, reason: "the row is empty" },
      { row: 6, reason: "it has no name" },
      { row: 7, reason: 'its budget "cheap" is not a positive number' },
      { row: 8, reason: "it repeats row 4" },
      { row: 9, reason: "it has 5 fields but the header has 4; put quotes around values that contain commas" },
      { row: 10, reason: "the row is empty" },
      { row: 12, reason: expect.stringContaining("never closed") },
    ]);
    await expectSameLedger(preview, csv);
  });

  it("a messy sheet: gaps and blank rows are empty rows, repeats and bad budgets are skipped, the job agrees", async () => {
    const rows = [
      ["이름", "부서", "관심사", "예산"],
      ["김민준", "영업", "커피", 30],
      [],
      [null, "영업", "차", 10],
      ["김민준", "영업", "커피", 30],
      ["이서연", "", "독서", "$abc"],
      ["이서연", "", "독서", 40],
      [],
      [],
    ];
    const bytes = await staffXlsx(rows);
    const { preview, csv } = await read(bytes, "messy.xlsx");
    expect(preview).toMatchObject({ rows: 6, people: 2, skippedCount: 4 });
    expect(preview.skipped).toEqual([
      { row: 3, reason: "the row is empty" },
      { row: 4, reason: "it has no name" },
      { row: 5, reason: "it repeats row 2" },
      { row: 6, reason: 'its budget "$abc" is not a positive number' },
    ]);
    await expectSameLedger(preview, csv);
  });

  it("a file of 3,000 generated rows with one bad row in fifty: the counts add up, in the preview and in the job", async () => {
    const rows = [["name", "department", "interests", "budget"]];
    for (let i = 0; i < 3_000; i++) {
      const kind = i % 50;
      if (kind === 7) rows.push(["", "Sales", "tea", "10"]);
      else if (kind === 19) rows.push([`P${i - 1}`, `D${(i - 1) % 7}`, "coffee;tea", String(10 + ((i - 1) % 40))]);
      else if (kind === 33) rows.push(["", "", "", ""]);
      else rows.push([`P${i}`, `D${i % 7}`, "coffee;tea", kind === 41 ? "n/a" : String(10 + (i % 40))]);
    }
    const { preview, csv } = await read(encodeText(delimited(rows), "utf-8"), "big.csv");
    expect(preview).toMatchObject({ rows: 3_000, people: 3_000 - 4 * 60, skippedCount: 4 * 60 });
    expect(preview.skipped).toHaveLength(100);
    const result = await runJob(csv);
    expect(result.total).toBe(preview.people);
    expect(result.skipped).toHaveLength(preview.skippedCount);
    expect(result.skipped.slice(0, 100).map(({ row, reason }) => ({ row, reason }))).toEqual(preview.skipped);
    // a bad budget's row keeps its name and department in the job's skipped rows
    expect(result.skipped.find((s) => s.reason.includes("n/a"))).toMatchObject({ name: "P41", department: "D6" });
    expect(result.total + countSkipped(csv)).toBe(3_000);
  });
});

/** The rows the canonical CSV marks as skipped: the row, its name and department, no interests or budget, why. */
function countSkipped(csv: string) {
  return csv.split("\n").filter((line) => /^\d+,[^,]*,[^,]*,,,./.test(line)).length;
}

describe("the header and the columns", () => {
  it("takes the columns a person chose over the ones found, and -1 for none", async () => {
    const rows = [
      ["Name", "Team", "Notes", "Hobbies", "Budget"],
      ["Ada", "R&D", "likes tea", "books", "x"],
    ];
    const chosen = await read(encodeText(delimited(rows), "utf-8"), "a.csv", { columns: { interests: 2, budget: -1 } });
    expect(chosen.preview.columns).toEqual({ name: 0, department: 1, interests: 2, budget: -1, id: -1 });
    expect(chosen.preview.sample[0]).toMatchObject({ interests: "likes tea", budget: "" });
    expect(chosen.preview.ready).toBe(true);
  });

  it("shows the rows as they are and asks for a column no header matched", async () => {
    const rows = [
      ["First", "Family", "Things"],
      ["Ada", "Lovelace", "math"],
    ];
    const { preview } = await read(encodeText(delimited(rows), "utf-8"), "a.csv");
    expect(preview).toMatchObject({ ready: false, people: 0, rows: 1, columns: { name: -1, interests: -1 } });
    expect(preview.problems).toEqual([
      expect.stringMatching(/^No column holds each person's name: the header has "First", "Family", "Things"\. Choose/),
      expect.stringMatching(/^No column holds the interests/),
    ]);
    const mapped = await read(encodeText(delimited(rows), "utf-8"), "a.csv", { columns: { name: 0, interests: 2 } });
    expect(mapped.preview).toMatchObject({
      ready: true,
      people: 1,
      sample: [{ row: 2, name: "Ada", interests: "math" }],
    });
  });

  it("says when two columns could be the same one", async () => {
    const rows = [
      ["Name", "NAME", "Interests"],
      ["a", "b", "c"],
    ];
    const { preview } = await read(encodeText(delimited(rows), "utf-8"), "a.csv");
    expect(preview.problems).toEqual([
      'More than one column could hold each person\'s name; "Name" was taken. Choose the right one.',
    ]);
  });
});

describe("limits", () => {
  const small = {
    ...limits,
    maxRows: 5,
    maxInterestsPerPerson: 3,
    maxCellsPerRow: 6,
    maxCellChars: 50,
    maxCsvBytes: 400,
  };

  it.each([
    [
      "too many rows",
      [["name", "interests"], ...Array.from({ length: 6 }, (_, i) => [`p${i}`, "x"])],
      /^The file has 6 rows; one analysis takes at most 5\./,
    ],
    [
      "too many interests",
      [
        ["name", "interests"],
        ["a", "w;x|y;z"],
      ],
      /^Row 2 lists 4 interests; one person may have at most 3\./,
    ],
    [
      "too many cells",
      [["name", "interests", "a", "b", "c", "d", "e"]],
      /^Row 1 has 7 cells; a row may have at most 6\./,
    ],
    [
      "a long cell",
      [
        ["name", "interests"],
        ["a".repeat(51), "x"],
      ],
      /^Row 2 has a cell of (more than 50|51) characters; a cell may hold at most 50\./,
    ],
  ])("refuses a sheet or a CSV with %s", async (_name, rows, message) => {
    for (const bytes of [encodeText(delimited(rows), "utf-8"), await staffXlsx(rows)]) {
      const r = await readStaffFile(bytes, "a", {}, small);
      expect(r).toMatchObject({ ok: false, error: { message: expect.stringMatching(message) } });
    }
  });

  it("refuses a list whose job input passes eight times the text's byte limit, naming both sizes", async () => {
    const rows = [["name", "interests"], ...Array.from({ length: 5 }, (_, i) => [`p${i} ${"n".repeat(40)}`, "x"])];
    for (const bytes of [encodeText(delimited(rows), "utf-8"), await staffXlsx(rows)]) {
      const r = await readStaffFile(bytes, "a", {}, { ...small, maxCsvBytes: 30 });
      expect(r).toMatchObject({
        ok: false,
        error: {
          message: expect.stringMatching(
            /^The staff list, as the job reads it, is \d+ bytes; the limit is 240 bytes\./,
          ),
        },
      });
    }
  });

  it("starts a file just under the text's byte limit whose job input is over it: the file's limits are its own", async () => {
    const rows = [["name", "interests"], ...Array.from({ length: 5 }, (_, i) => [`p${i} ${"n".repeat(50)}`, "x"])];
    const file = encodeText(delimited(rows), "utf-8");
    const limited = { ...small, maxCellChars: 60, maxCellsPerRow: 10, maxCsvBytes: file.length + 1 };
    const r = await readStaffFile(file, "a.csv", {}, limited);
    if (!r.ok) throw new Error(r.error.message);
    expect(Buffer.byteLength(r.value.csv)).toBeGreaterThan(limited.maxCsvBytes);
    const args = { csv: r.value.csv, occasion: "thanks", budgetPerPerson: 40 };
    expect(await planStart(args, limited)).toMatchObject({ ok: false, error: { code: "input_too_large" } });
    expect(await planStart(args, readInputLimits(limited))).toMatchObject({ ok: true, value: { estimatedRows: 5 } });
  });

  it("refuses a sheet whose rows jump past the row limit without reading the gap, and passes blank rows after it", async () => {
    const far = await staffXlsx([["name", "interests"], ["a", "x"], { at: 900_000, cells: ["b", "y"] }]);
    expect(await readStaffFile(far, "a.xlsx", {}, small)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/^The file has 899,999 rows; one analysis takes at most 5\./) },
    });
    const blank = await staffXlsx([["name", "interests"], ["a", "x"], { at: 900_000, cells: ["", ""] }]);
    expect((await read(blank, "a.xlsx", {}, small)).preview).toMatchObject({ rows: 1, people: 1 });
  });
});
