/**
 * One file out of a job's result: the picks (a row per person, up to three gifts) or the skipped
 * rows, as CSV or .xlsx, in the job's language. The bytes are made as the store is read, for the
 * tool (which counts them) and the link (which streams them) alike.
 */
import { FILE_LIMITS, type ExportInput, type ExportResult, type SkippedRow } from "../../../shared/files.js";
import { MINOR_DIGITS, type Currency } from "../../../shared/money.js";
import type { Language } from "../../../shared/stage-words.js";
import type { PersonResult } from "../../../shared/tools.js";
import type { z } from "zod/mini";
import type { Caller } from "../../jobs/caller.js";
import type { JobService } from "../../jobs/job-service.js";
import { ok, type Outcome } from "../../outcomes.js";
import type { FileLinks } from "./file-links.js";
import { csvLine } from "./result-csv.js";
import type { ResultSource } from "./result-source.js";
import { XLSX_MIME_TYPE, xlsxFile, type Cell } from "./xlsx.js";

/** Gifts per person the picks have columns for: what the analysis picks for each person. */
const GIFT_COLUMNS = 3;

/** The picks' first columns (the budget's with its currency), a gift's columns (its name, then price, category, reason). */
const EN = {
  columns: ["row", "name", "department", "interests", "budget"],
  gift: ["gift", "price", "category", "reason"],
  why: "reason",
  sheets: { picks: "Picks", skipped: "Skipped rows" },
};

const WORDS: Record<Language, typeof EN> = {
  en: EN,
  ko: {
    columns: ["행", "이름", "부서", "관심사", "예산"],
    gift: ["선물", "가격", "분류", "추천 이유"],
    why: "건너뛴 이유",
    sheets: { picks: "선물 추천", skipped: "건너뛴 행" },
  },
};

/** The picks' header: row, name, department, interests, budget, then name, price, category, reason per gift. */
export function picksHeader(language: Language, currency: Currency): string[] {
  const { columns, gift } = WORDS[language];
  const [giftWord, price, category, reason] = gift;
  const gifts = Array.from({ length: GIFT_COLUMNS }, (_, i) => {
    const nth = `${giftWord} ${i + 1}`;
    return [nth, `${nth} ${price} (${currency})`, `${nth} ${category}`, `${nth} ${reason}`];
  });
  return [...columns.slice(0, 4), `${columns[4]} (${currency})`, ...gifts.flat()];
}

/** The columns of the picks that hold money (0-based): the budget and each gift's price. */
const PICKS_MONEY_COLUMNS: readonly number[] = [4, ...Array.from({ length: GIFT_COLUMNS }, (_, i) => 6 + 4 * i)];

/** One person's row; missing gifts (none fitted the budget) are empty cells. */
export function pickCells(p: PersonResult): Cell[] {
  const cells: Cell[] = [p.row, p.name, p.department ?? "", p.interests.join("; "), p.budget];
  for (let i = 0; i < GIFT_COLUMNS; i++) {
    const g = p.gifts[i];
    cells.push(...(g ? [g.name, g.price, g.category, g.reason] : ["", "", "", ""]));
  }
  return cells;
}

const skippedCells = (s: SkippedRow): Cell[] => [s.row, s.name ?? "", s.department ?? "", s.reason];

/** Excel's number format for amounts in `currency`: "₩50,000", "$40.00". */
function moneyFormat(currency: Currency): string {
  const parts = new Intl.NumberFormat("en", { style: "currency", currency }).formatToParts(0);
  return `"${parts.find((p) => p.type === "currency")?.value}"#,##0${MINOR_DIGITS[currency] > 0 ? ".00" : ""}`;
}

type Format = z.output<typeof ExportInput>["format"];
export type ExportPart = z.output<typeof ExportInput>["part"];

/** Characters no file system or `Content-Disposition` should get from a job title. */
const UNSAFE_IN_NAME = /[\\/:*?"<>|\p{Cc}\p{Cf}]+/gu;

/** "holiday gifts from a list of 2,000 rows.csv", "2,000행 명단의 추석 선물 (partial).xlsx", "… - skipped rows.csv". */
function fileNameOf(source: ResultSource, part: ExportPart, format: Format): string {
  const title = source.title.replace(UNSAFE_IN_NAME, " ").replace(/\s+/g, " ").trim().slice(0, 120) || "gift picks";
  const suffix = part === "skipped" ? " - skipped rows" : source.partial ? " (partial)" : "";
  return `${title}${suffix}.${format}`;
}

/** The rows of the picks, a stored chunk at a time, or of the skipped rows, a thousand at a time. */
async function* batches(source: ResultSource, picks: boolean): AsyncGenerator<Cell[][]> {
  if (picks) for await (const people of source.people()) yield people.map(pickCells);
  else for (let i = 0; i < source.skipped.length; i += 1000) yield source.skipped.slice(i, i + 1000).map(skippedCells);
}

export function exportFile(source: ResultSource, part: ExportPart, format: Format) {
  const picks = part === "picks";
  const { language, currency } = source;
  const words = WORDS[language];
  // the skipped rows: row, name, department, and why
  const header = picks ? picksHeader(language, currency) : [...words.columns.slice(0, 3), words.why];
  return {
    fileName: fileNameOf(source, part, format),
    mimeType: format === "csv" ? "text/csv; charset=utf-8" : XLSX_MIME_TYPE,
    rows: picks ? source.total : source.skipped.length, // under the header
    body:
      format === "csv"
        ? () => csvFile(header, batches(source, picks))
        : () =>
            xlsxFile(header, batches(source, picks), {
              sheetName: picks ? words.sheets.picks : words.sheets.skipped,
              created: new Date(source.createdAt),
              ...(picks && { money: { columns: PICKS_MONEY_COLUMNS, format: moneyFormat(currency) } }),
            }),
  };
}

/** Excel opens a CSV without one in the system's code page (CP949, Windows-1252): 김민준 as mojibake. */
const BOM = "\uFEFF";

/** Rows as CSV for spreadsheets, CRLF, text cells guarded against formulas; a batch at a time. */
async function* csvFile(header: readonly string[], batches: AsyncIterable<Cell[][]>): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  yield encoder.encode(BOM + csvLine(header));
  for await (const rows of batches) if (rows.length > 0) yield encoder.encode(rows.map(csvLine).join(""));
}

/** A file's bytes read through once: their count, and the bytes themselves when they fit in `keepUpTo`. */
export async function measureFile(body: AsyncGenerator<Uint8Array>, keepUpTo: number) {
  let size = 0;
  let kept: Uint8Array[] | undefined = keepUpTo > 0 ? [] : undefined;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > keepUpTo) kept = undefined; // past the cap the rest is only counted
    kept?.push(chunk);
  }
  return kept ? { size, bytes: Buffer.concat(kept) } : { size };
}

/** A job's result as a file behind a link on `origin`, and its bytes when `inline` asks and they fit. */
export async function exportResult(
  { jobs, fileLinks }: { jobs: Pick<JobService, "openResult">; fileLinks: FileLinks },
  { jobId, format, part, inline }: z.output<typeof ExportInput>,
  caller: Caller,
  origin: string | undefined,
): Promise<Outcome<ExportResult>> {
  const opened = await jobs.openResult(jobId, caller);
  if (!opened.ok) return opened;
  const file = exportFile(opened.value, part, format);
  const { size, bytes } = inline ? await measureFile(file.body(), FILE_LIMITS.maxInlineExportBytes) : {};
  const claims = { jobId, subject: caller.subject, format, part };
  const { url, expiresAt } = await fileLinks.issue(claims, origin, file.fileName);
  return ok({
    jobId,
    fileName: file.fileName,
    mimeType: file.mimeType,
    ...(size !== undefined && { size }),
    rows: file.rows,
    partial: opened.value.partial,
    url,
    expiresAt,
    ...(bytes && { data: bytes.toString("base64") }),
  });
}
