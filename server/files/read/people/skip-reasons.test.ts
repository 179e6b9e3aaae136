/**
 * Every reason the readers really write has its Korean: the reasons are made by the readers
 * themselves here, so a reworded English reason without its Korean fails this test.
 */
import { createLedger } from "./ledger.js";
import { resolveLimits } from "../../../limits.js";
import { inspectCsv } from "../csv/inspect.js";
import { readCsvBatches } from "../csv/reader.js";
import { readRecord } from "./rows.js";
import { koreanReason } from "./skip-reasons.js";

/** The reasons the rows of `csv` are skipped for, as a job reads them (columns from its header). */
async function reasons(csv: string, mergeDuplicates = false): Promise<string[]> {
  const plan = await inspectCsv(csv, resolveLimits());
  if (!plan.ok) throw new Error(plan.error.message);
  const { columns } = plan.value;
  const out: string[] = [];
  const ledger = createLedger<undefined>((fate) => void ("reason" in fate && out.push(fate.reason)), {
    mergeDuplicates,
  });
  for await (const batch of readCsvBatches(csv, { separator: columns.separator }))
    for (const r of batch) ledger.add("reason" in r ? r : readRecord(r.cells, r.row, columns, 50), undefined);
  ledger.end();
  return out;
}

describe("skipped rows in Korean", () => {
  it("words every reason a list's rows are skipped for", async () => {
    const csv = [
      "name,department,interests,budget",
      ",Sales,golf,40",
      "Ann,Sales,golf,cheap",
      "Bo,Sales,golf,40,extra",
      "",
      "Cy,Sales,golf,40",
      "CY, sales ,golf,40",
      'Di,"Sales,golf,40',
    ].join("\n");
    const english = await reasons(csv);
    expect(english).toEqual([
      "it has no name",
      'its budget "cheap" is not a positive number',
      "it has 5 fields but the header has 4; put quotes around values that contain commas",
      "the row is empty",
      "it repeats row 6",
      expect.stringMatching(/^a quoted value that starts in this row is never closed/),
    ]);
    expect(english.map(koreanReason)).toEqual([
      "이름이 없습니다",
      '예산이 0보다 큰 숫자가 아닙니다("cheap")',
      "값이 5개인데 머리글은 4개입니다. 쉼표가 들어간 값은 큰따옴표로 감싸 주세요",
      "빈 행입니다",
      "6행과 같은 사람입니다",
      "이 행에서 시작한 따옴표 값이 닫히지 않아 파일의 나머지가 그 값으로 읽혔습니다. 잘못 들어간 큰따옴표가 있는지 확인해 주세요",
    ]);
  });

  it("words the repeats of an ID and the namesakes merged", async () => {
    const byId = await reasons("사번,이름,관심사\nA-17,김민준,등산\nA-17,김민준,커피\n");
    const merged = await reasons("이름,부서,관심사\n김민준,개발팀,등산\n김민준,개발팀,커피\n", true);
    expect([...byId, ...merged]).toEqual([
      'its ID "A-17" repeats row 2',
      "it was merged with row 2, which has the same name and department",
    ]);
    expect([...byId, ...merged].map(koreanReason)).toEqual([
      '2행과 사번(ID) "A-17"이 같은 사람입니다',
      "2행과 이름·부서가 같아 한 사람으로 합쳤습니다",
    ]);
  });

  it("words the reasons of an employees list and a record csv-parse refuses, and keeps one it does not know", () => {
    expect(koreanReason("its budget -5 is not a positive number")).toBe("예산이 0보다 큰 숫자가 아닙니다(-5)");
    expect(koreanReason("it has 3 fields but the header has 4")).toBe("값이 3개인데 머리글은 4개입니다");
    expect(koreanReason("it could not be read as CSV (Invalid Record Length)")).toBe(
      "CSV로 읽을 수 없습니다(Invalid Record Length)",
    );
    expect(koreanReason("퇴사 예정")).toBe("퇴사 예정");
  });

  it("words a budget in another currency than the job's", () => {
    expect(koreanReason("its budget $40 is in USD, but the job's budget is in KRW")).toBe(
      "예산 $40은(는) USD 금액인데, 이 작업의 예산 통화는 KRW입니다",
    );
  });
});
