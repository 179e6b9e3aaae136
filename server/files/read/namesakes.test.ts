/**
 * People are who HR says they are, through the real staff-file reader and the job that reads its
 * canonical CSV: a 사번 column is the identity (two 김민준 in 개발팀 are two people, a repeated 사번
 * one); without one, namesakes are kept and flagged, and merged when the person asks; the job
 * ends with exactly the people and skipped rows the preview promised.
 */
import type { Reading } from "../../../shared/files.js";
import { resolveLimits } from "../../limits.js";
import { runToResult } from "../../../test-kit/jobs/service-reads.js";
import { delimited, encodeText, staffXlsx } from "../../../test-kit/staff-files.js";
import { readStaffFile } from "./staff-file.js";

async function read(bytes: Uint8Array, name: string, reading: Reading = {}) {
  const r = await readStaffFile(bytes, name, reading, resolveLimits());
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** The job run on a staff file's canonical CSV: its people (row, name, interests) and skipped rows. */
async function runJob(csv: string) {
  const { people, skipped } = await runToResult({ csv });
  return { people: people.map((p) => [p.row, p.name, p.interests]), skipped };
}

const HEADER = ["사번", "성명", "부서", "관심사", "예산"];
const STAFF = [
  ["A-001", "김민준", "개발팀", "등산, 커피", "30"],
  ["A-002", "김민준", "개발팀", "영화/독서", "40"],
  ["A-003", "이서연", "디자인팀", "요가·필라테스", ""],
  ["A-001", "김민준", "개발팀", "등산", "30"],
  ["A-004", "이서연", "디자인팀", "요가·필라테스", ""],
];
const withoutIds = (rows: string[][]) => rows.map((r) => r.slice(1));

describe("people by their 사번", () => {
  it.each(["csv", "xlsx"])(
    "keeps two 김민준 of 개발팀 with their own 사번, skips a 사번 written twice (%s)",
    async (kind) => {
      const rows = [HEADER, ...STAFF];
      const bytes = kind === "csv" ? encodeText(delimited(rows), "cp949") : await staffXlsx(rows);
      const { preview, csv } = await read(bytes, `직원.${kind}`);
      expect(preview.columns).toEqual({ id: 0, name: 1, department: 2, interests: 3, budget: 4 });
      expect(preview).toMatchObject({ rows: 5, people: 4, skippedCount: 1, possibleDuplicateCount: 0, ready: true });
      expect(preview.skipped).toEqual([{ row: 5, reason: 'its ID "A-001" repeats row 2' }]);
      expect(preview.sample.map((s) => [s.row, s.id])).toEqual([
        [2, "A-001"],
        [3, "A-002"],
        [4, "A-003"],
        [6, "A-004"],
      ]);
      const job = await runJob(csv);
      expect(job.people).toEqual([
        [2, "김민준", ["등산", "커피"]],
        [3, "김민준", ["영화", "독서"]],
        [4, "이서연", ["요가", "필라테스"]],
        [6, "이서연", ["요가", "필라테스"]],
      ]);
      expect(job.skipped.map(({ row, reason }) => ({ row, reason }))).toEqual(preview.skipped);
    },
  );
});

describe("people without an ID", () => {
  const bytes = encodeText(delimited(withoutIds([HEADER, ...STAFF])), "utf-8");

  it("takes a row alike in every field as a repeat, keeps namesakes (a third one too) apart and flags them", async () => {
    const { preview, csv } = await read(bytes, "명단.csv");
    expect(preview.columns.id).toBe(-1);
    expect(preview).toMatchObject({ rows: 5, people: 4, skippedCount: 1 });
    expect(preview.skipped).toEqual([{ row: 6, reason: "it repeats row 4" }]);
    expect(preview.possibleDuplicates).toEqual([{ rows: [2, 3, 5], name: "김민준", department: "개발팀" }]);
    expect(preview.possibleDuplicateCount).toBe(1);
    const job = await runJob(csv);
    expect(job.people.map(([row]) => row)).toEqual([2, 3, 4, 5]);
    expect(job.skipped.map(({ row, reason }) => ({ row, reason }))).toEqual(preview.skipped);
  });

  it("merges the namesakes when the person asks: the first row kept, the others skipped as merged", async () => {
    const { preview, csv } = await read(bytes, "명단.csv", { mergeDuplicates: true });
    expect(preview).toMatchObject({ people: 2, skippedCount: 3, possibleDuplicates: [], possibleDuplicateCount: 0 });
    const merged = "it was merged with row 2, which has the same name and department";
    expect(preview.skipped).toEqual([
      { row: 3, reason: merged },
      { row: 5, reason: merged },
      { row: 6, reason: "it repeats row 4" },
    ]);
    const job = await runJob(csv);
    expect(job.people.map(([row]) => row)).toEqual([2, 4]);
    expect(job.skipped.map(({ row, reason }) => ({ row, reason }))).toEqual(preview.skipped);
  });
});
