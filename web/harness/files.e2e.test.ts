/**
 * Staff files end to end in a real browser, in both host modes: a 5,000-row .xlsx with Korean
 * headers and a CP949 CSV each go from the widget's picker through its preview, Start, progress and
 * result, then come back as CSV and .xlsx downloads (`openExternal` in ChatGPT mode,
 * `ui/download-file` in MCP Apps mode) read back equal to the job's result. In ChatGPT mode the same
 * file passed as ChatGPT's file parameter runs the same job, a dropped `put_file_chunk` reply is
 * resumed (and in a new widget, nothing is sent twice), and a file the person removes is dropped on
 * the server. Screenshots of the picker, the preview (English, Korean) and the downloads go to
 * test-artifacts/. Needs `npm run build` first (dist/harness and dist/widget).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import type { FrameLocator, Page } from "playwright-core";
import type { PersonResult } from "../../shared/tools.js";
import { seededRandom } from "../../shared/seeded-random.js";
import { pickCells, picksHeader } from "../../server/files/export/export-file.js";
import type { Caller } from "../../server/jobs/caller.js";
import { ARTIFACTS, setUpBrowserTests } from "../../test-kit/browser.js";
import { HOBBIES } from "../../test-kit/employee-csv.js";
import { koreanStaff, koreanWorkbook } from "../../test-kit/korean-workbook.js";
import { delimited, encodeText, staffXlsx } from "../../test-kit/staff-files.js";

const JOB_TIMEOUT = 60_000;
const ROWS = 5_000;

/**
 * A staff list as Korean Excel users write it: Korean headers, names and departments, and a column
 * the job does not read (e-mail), which also makes the CP949 CSV two upload chunks long.
 */
function staffRows(): string[][] {
  const random = seededRandom(19);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const family = ["김", "이", "박", "최", "정", "강", "조", "윤", "장", "임"];
  const given = ["민준", "서연", "지호", "하윤", "도윤", "서준", "지우", "예준", "수아", "지민"];
  const departments = ["영업", "개발", "디자인", "인사", "재무", "마케팅"];
  const rows = [["이름", "부서", "관심사", "예산", "이메일"]];
  for (let i = 0; i < ROWS; i++) {
    const interests = [pick(HOBBIES), pick(HOBBIES), pick(HOBBIES)].join("; ");
    const email = `employee-${i + 1}@giftgenius.example.co.kr`;
    rows.push([
      `${pick(family)}${pick(given)} ${i + 1}`,
      pick(departments),
      interests,
      String(30 + (i % 6) * 10),
      email,
    ]);
  }
  return rows;
}

const run = setUpBrowserTests({ devFiles: true });
let page: Page;
let pageErrors: string[];
let dir: string;
const files = { xlsx: "", csv: "", korean: "" };
/** Every job the server created, in order, with who owns it (to read its result). */
const created: { jobId: string; owner: Caller }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "giftgenius-files-"));
  const rows = staffRows();
  files.xlsx = join(dir, "직원명단.xlsx");
  writeFileSync(files.xlsx, await staffXlsx(rows, { name: "직원" }));
  files.csv = join(dir, "직원명단-cp949.csv");
  writeFileSync(files.csv, encodeText(delimited(rows), "cp949"));
  files.korean = join(dir, "2026 연말 선물 명단.xlsx");
  writeFileSync(files.korean, koreanWorkbook(koreanStaff(3_000)));

  run.server.jobs.onEvent(({ event, owner }) => {
    if (event.type === "job.created") created.push({ jobId: event.jobId, owner });
  });
  ({ page, errors: pageErrors } = await run.openHarness({
    viewport: { width: 1440, height: 1000 },
    acceptDownloads: true,
  }));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const frame = () => page.locator('iframe[title="Widget"]');
const log = () => page.locator(".log-list");
const shot = (name: string) => page.locator(".widget-shell").screenshot({ path: `${ARTIFACTS}/${name}.png` });

/** On failure, a picture of the page is the quickest clue. */
async function withFailureShot(name: string, body: () => Promise<void>) {
  try {
    await body();
  } catch (error) {
    await page.screenshot({ path: `${ARTIFACTS}/${name}-failure.png`, fullPage: true }).catch(() => undefined);
    throw error;
  }
}

/** Clicks `button` on the bulk form and returns the widget of the call it makes, once mounted. */
async function mountFrom(button: string): Promise<FrameLocator> {
  const previous = (await frame().count()) > 0 ? await frame().getAttribute("data-mount") : null;
  await page.getByRole("button", { name: button }).click();
  await expect
    .poll(
      () =>
        frame()
          .getAttribute("data-mount")
          .catch(() => null),
      { timeout: JOB_TIMEOUT },
    )
    .not.toBe(previous);
  return page.frameLocator(`iframe[data-mount="${await frame().getAttribute("data-mount")}"]`);
}

/** Picks `path` in the widget's picker and waits for its preview. */
async function preview(widget: FrameLocator, path: string) {
  await widget.getByText("Choose a file or drop it here").waitFor({ timeout: JOB_TIMEOUT });
  await widget.locator('input[type="file"]').setInputFiles(path);
  const name = path.split("/").pop()!;
  await widget.getByRole("heading", { name }).waitFor({ timeout: JOB_TIMEOUT });
  await expect
    .poll(() => widget.getByText(/rows: .* people/).textContent(), { timeout: JOB_TIMEOUT })
    .toBe("5,000 rows: 5,000 people, 0 skipped");
}

/** Waits for the widget's job to complete; returns its id. */
async function completed(widget: FrameLocator): Promise<string> {
  await expect
    .poll(() => widget.locator(".gg-status").textContent(), { timeout: JOB_TIMEOUT, interval: 100 })
    .toBe("Completed");
  // the short card's summary, worded from the result's figures
  await expect.poll(() => widget.locator(".gg-summary").count(), { timeout: JOB_TIMEOUT }).toBeGreaterThan(0);
  return created.at(-1)!.jobId;
}

/** Every person of a job's result, read through the job service as its owner. */
async function resultOf(jobId: string): Promise<PersonResult[]> {
  const { owner } = created.find((c) => c.jobId === jobId)!;
  const people: PersonResult[] = [];
  for (let offset: number | null = 0; offset !== null;) {
    const page = await run.server.jobs.getResult({ jobId, offset, limit: 500 }, owner);
    if (!page.ok) throw new Error(page.error.message);
    people.push(...page.value.people);
    offset = page.value.nextOffset;
  }
  return people;
}

/** Clicks a download button of the widget and returns the bytes the browser saved. */
async function download(widget: FrameLocator, format: "CSV" | "Excel (.xlsx)"): Promise<Buffer> {
  const group = widget.getByRole("group", { name: "Download the picks" });
  const [saved] = await Promise.all([
    page.waitForEvent("download", { timeout: JOB_TIMEOUT }),
    group.getByRole("button", { name: format }).click(),
  ]);
  return readFileSync(await saved.path());
}

/** The picks' header of an English job in dollars, as the harness starts it. */
const PICKS_HEADER = picksHeader("en", "USD");

/** A sheet's rows as text, the way the CSV holds them: numbers as written, empty cells empty. */
async function xlsxRows(bytes: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  const rows: string[][] = [];
  workbook.worksheets[0].eachRow({ includeEmpty: false }, (row) => {
    const cells = (row.values as unknown[]).slice(1);
    rows.push(
      Array.from({ length: PICKS_HEADER.length }, (_, i) =>
        cells[i] == null ? "" : String(cells[i] as string | number),
      ),
    );
  });
  return rows;
}
/** The CSV's rows, its byte-order mark and formula-cell guard taken off. */
const csvRows = (bytes: Buffer): string[][] =>
  parse(bytes, { bom: true, relax_column_count: true }).map((r) =>
    r.map((cell) => cell.replace(/^'(?=[=+\-@\t\r])/, "")),
  );

/** The result as the picks file must hold it: the header, then one row per person. */
const expectedRows = (people: PersonResult[]) => [
  [...PICKS_HEADER],
  ...[...people].sort((a, b) => a.row - b.row).map((p) => pickCells(p).map(String)),
];

/**
 * Runs `path` through picker → preview → Start → result → both downloads; returns the job id.
 * `first` takes the picker's and the downloads' screenshots, `previewShots` the preview's (en, ko).
 */
async function runFile(path: string, kind: string, first: boolean, previewShots: boolean): Promise<string> {
  const widget = await mountFrom("Ask for the file in the widget");
  if (first) {
    await widget.getByText("Choose a file or drop it here").waitFor({ timeout: JOB_TIMEOUT });
    await shot(`files-picker-${kind}`);
  }
  await preview(widget, path);
  const name = await widget.getByLabel("Name").evaluate((s: HTMLSelectElement) => s.selectedOptions[0].text);
  expect(name).toBe("이름");
  if (path.endsWith(".csv"))
    await widget.getByText("CSV · CP949 / EUC-KR · separated by “,” · budgets in USD").waitFor();
  else await expect.poll(() => widget.getByLabel("Sheet").inputValue()).toBe("직원");
  if (previewShots) {
    const format = path.split(".").pop();
    await shot(`files-preview-${format}`);
    await page.getByRole("radio", { name: "ko-KR" }).click();
    await widget.getByText("5,000행: 5,000명, 건너뜀 0행").waitFor();
    await shot(`files-preview-${format}-ko`);
    await page.getByRole("radio", { name: "en-US" }).click();
    await widget.getByText("5,000 rows: 5,000 people, 0 skipped").waitFor();
  }
  await widget.getByRole("button", { name: "Start" }).click();
  const jobId = await completed(widget);
  const expected = expectedRows(await resultOf(jobId));
  expect(expected).toHaveLength(ROWS + 1);
  expect(csvRows(await download(widget, "CSV"))).toEqual(expected);
  expect(await xlsxRows(await download(widget, "Excel (.xlsx)"))).toEqual(expected);
  await widget.getByText("is ready.").first().waitFor();
  if (first) {
    await shot(`files-download-${kind}`);
    await page.screenshot({ path: `${ARTIFACTS}/files-download-${kind}-harness.png` });
  }
  return jobId;
}

const HOSTS = [
  ["ChatGPT (window.openai)", "openai", "openai/openExternal"],
  ["MCP Apps (AppBridge)", "mcp-apps", "ui/download-file"],
] as const;

describe("staff files in and out, in the browser", () => {
  const jobs: Record<string, string> = {};

  it.each(HOSTS)(
    "in the %s host: an .xlsx with Korean headers and a CP949 CSV go from the picker to a result downloaded as CSV and .xlsx",
    (label, kind, delivery) =>
      withFailureShot(`files-${kind}`, async () => {
        await page.getByRole("radio", { name: label }).click();
        await page.getByRole("button", { name: "Clear" }).click();
        jobs[`${kind}-xlsx`] = await runFile(files.xlsx, kind, true, kind === "openai");
        jobs[`${kind}-csv`] = await runFile(files.csv, kind, false, kind === "openai");
        // two files, two formats each: the host saved every one its own way
        expect(await log().locator(`[data-kind="host"][data-method="${delivery}"]`).count()).toBe(4);
        // the same rows whatever the file's format: the .xlsx and the CP949 CSV were read alike
        const [fromXlsx, fromCsv] = await Promise.all([resultOf(jobs[`${kind}-xlsx`]), resultOf(jobs[`${kind}-csv`])]);
        expect(fromCsv).toEqual(fromXlsx);
        expect(pageErrors).toEqual([]);
      }),
    4 * JOB_TIMEOUT,
  );

  it(
    "in ChatGPT mode, the same file as ChatGPT's file parameter runs the same job",
    () =>
      withFailureShot("files-param", async () => {
        await page.getByRole("radio", { name: "ChatGPT (window.openai)" }).click();
        await page.getByLabel("Attach a file…").setInputFiles(files.xlsx);
        await page.getByLabel("Attached file").waitFor();
        const widget = await mountFrom("Start bulk analysis");
        const jobId = await completed(widget);
        expect(await log().locator('[data-method="dev/files"]').count()).toBe(1);
        expect(await resultOf(jobId)).toEqual(await resultOf(jobs["openai-xlsx"]));
        await page.getByLabel("Attached file").getByRole("button", { name: "Remove" }).click();
      }),
    2 * JOB_TIMEOUT,
  );

  it(
    "resumes an upload whose put_file_chunk reply was dropped, a file chosen again in a new widget sends nothing twice, and a file removed is dropped",
    () =>
      withFailureShot("files-resume", async () => {
        await page.getByRole("radio", { name: "ChatGPT (window.openai)" }).click();
        await page.getByRole("button", { name: "Clear" }).click();
        await page.getByLabel(/Drop the next put_file_chunk reply/).check();
        const widget = await mountFrom("Ask for the file in the widget");
        await preview(widget, files.csv);
        await expect.poll(() => page.getByLabel(/Drop the next put_file_chunk reply/).isChecked()).toBe(false);
        const drops = log().locator('[data-method="fault/drop"]');
        expect(await drops.count()).toBe(1);
        const puts = log().locator('.log-row[data-kind="request"]:has(.log-tool:text-is("put_file_chunk"))');
        const chunks = Math.ceil(readFileSync(files.csv).length / (256 * 1024));
        expect(chunks).toBeGreaterThan(1);
        // the lost reply's chunk was sent once more, every other chunk once
        expect(await puts.count()).toBe(chunks + 1);

        // a new widget, as after a reload: the server still holds every chunk of the same file, so
        // beginning again sends none
        const again = await mountFrom("Ask for the file in the widget");
        await preview(again, files.csv);
        expect(await puts.count()).toBe(chunks + 1);
        const begins = log().locator('.log-row[data-kind="request"]:has(.log-tool:text-is("begin_file_upload"))');
        expect(await begins.count()).toBe(2);
        // the person removes the file: the server drops the upload, which then holds no room
        await again.getByRole("button", { name: "Choose another file" }).click();
        const dropped = log().locator('.log-row[data-kind="request"]:has(.log-tool:text-is("drop_file_upload"))');
        await expect.poll(() => dropped.count()).toBe(1);
        expect(pageErrors).toEqual([]);
      }),
    2 * JOB_TIMEOUT,
  );

  it(
    "in the MCP Apps host, in Korean: a Korean team's workbook written by SheetJS is previewed and run in won",
    () =>
      withFailureShot("files-korean", async () => {
        await page.getByRole("radio", { name: "MCP Apps (AppBridge)" }).click();
        await page.getByRole("radio", { name: "ko-KR" }).click();
        await page.getByRole("button", { name: "Clear" }).click();
        await page.getByLabel("Occasion").first().fill("연말 감사 선물");
        await page.getByLabel("Per person").fill("50000");
        const widget = await mountFrom("Ask for the file in the widget");
        // the call named no currency: the person's (a Korean host's) is won
        await widget.getByText(/₩50,000/).waitFor({ timeout: JOB_TIMEOUT });
        await widget.locator('input[type="file"]').setInputFiles(files.korean);
        await expect
          .poll(() => widget.getByText(/행: .*명/).textContent(), { timeout: JOB_TIMEOUT })
          .toBe("3,000행: 3,000명, 건너뜀 0행");
        // past the guide sheet, to the staff list
        await expect.poll(() => widget.getByLabel("시트").inputValue()).toBe("직원 명단");
        await widget.getByText("Excel · 예산 통화 KRW").waitFor();
        await shot("files-korean-preview");
        await widget.getByRole("button", { name: "시작" }).click();
        await expect
          .poll(() => widget.locator(".gg-status").textContent(), { timeout: JOB_TIMEOUT, interval: 100 })
          .toBe("완료됨");
        await expect
          .poll(() => widget.locator(".gg-summary").first().textContent(), { timeout: JOB_TIMEOUT })
          .toMatch(/^3,000명 · 1순위 합계 ₩[\d,]+ \/ 예산 ₩[\d,]+$/);
        await widget.getByRole("button", { name: "전체 결과 열기" }).click();
        await widget.getByText("3,000명", { exact: true }).waitFor({ timeout: JOB_TIMEOUT });
        await shot("files-korean-result");
        const people = await resultOf(created.at(-1)!.jobId);
        expect(people).toHaveLength(3_000);
        for (const p of people) for (const g of p.gifts) expect(g.price).toBeLessThanOrEqual(p.budget);
        expect(pageErrors).toEqual([]);
      }),
    2 * JOB_TIMEOUT,
  );
});
