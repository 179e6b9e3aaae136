/**
 * One file out of a job's result: the picks or the error ledger, as CSV or .xlsx, with its name
 * and type. The bytes are produced as they are read, from the store, so the same function serves
 * the tool (which counts them, and may keep them for `data`) and the link (which streams them).
 */
import type { ExportInput } from "../../../shared/files.js";
import type { z } from "zod/mini";
import {
  MONEY_FORMATS,
  PICKS_MONEY_COLUMNS,
  pickCells,
  picksHeader,
  sheetNames,
  skippedCells,
  skippedHeader,
  type Cell,
} from "./columns.js";
import { csvCell } from "./result-csv.js";
import type { ResultSource } from "./result-source.js";
import { XLSX_MIME_TYPE, xlsxFile } from "./xlsx.js";

type Format = z.output<typeof ExportInput>["format"];
export type ExportPart = z.output<typeof ExportInput>["part"];

export type ExportFile = {
  fileName: string;
  mimeType: string;
  /** Rows under the header: people for the picks, rows for the ledger. */
  rows: number;
  body(): AsyncGenerator<Uint8Array>;
};

/** Characters no file system or `Content-Disposition` should get from a job title. */
const UNSAFE_IN_NAME = /[\\/:*?"<>|\p{Cc}\p{Cf}]+/gu;

/** "holiday gifts from a list of 2,000 rows.csv", "2,000행 명단의 추석 선물 (partial).xlsx", "… - skipped rows.csv". */
function fileNameOf(source: ResultSource, part: ExportPart, format: Format): string {
  const title = source.title.replace(UNSAFE_IN_NAME, " ").replace(/\s+/g, " ").trim().slice(0, 120) || "gift picks";
  const suffix = part === "skipped" ? " - skipped rows" : source.partial ? " (partial)" : "";
  return `${title}${suffix}.${format}`;
}

async function* pickBatches(source: ResultSource): AsyncGenerator<Cell[][]> {
  for await (const people of source.people()) yield people.map(pickCells);
}

async function* ledgerBatches(source: ResultSource): AsyncGenerator<Cell[][]> {
  const BATCH = 1000;
  for (let i = 0; i < source.skipped.length; i += BATCH) yield source.skipped.slice(i, i + BATCH).map(skippedCells);
}

/** The file of `part` in `format`; its headers and sheet in the job's language, its money in the job's currency. */
export function exportFile(source: ResultSource, part: ExportPart, format: Format): ExportFile {
  const picks = part === "picks";
  const { language, currency } = source;
  const header = picks ? picksHeader(language, currency) : skippedHeader(language);
  const batches = () => (picks ? pickBatches(source) : ledgerBatches(source));
  const sheets = sheetNames(language);
  return {
    fileName: fileNameOf(source, part, format),
    mimeType: format === "csv" ? CSV_MIME_TYPE : XLSX_MIME_TYPE,
    rows: picks ? source.total : source.skipped.length,
    body:
      format === "csv"
        ? () => csvFile(header, batches())
        : () =>
            xlsxFile(header, batches(), {
              sheetName: picks ? sheets.picks : sheets.skipped,
              created: new Date(source.createdAt),
              ...(picks && { money: { columns: PICKS_MONEY_COLUMNS, format: MONEY_FORMATS[currency] } }),
            }),
  };
}

const CSV_MIME_TYPE = "text/csv; charset=utf-8";

/**
 * Excel opens a CSV without a byte-order mark in the system's legacy code page (CP949 on a
 * Korean Windows, Windows-1252 on a Western one), so 김민준 would show as mojibake; with the BOM
 * it reads UTF-8. Other spreadsheets and csv-parse (`bom: true`) skip it.
 */
const BOM = "\uFEFF";

const csvLine = (cells: readonly Cell[]): string =>
  `${cells.map((c) => (typeof c === "number" ? String(c) : csvCell(c))).join(",")}\r\n`;

/**
 * Rows as CSV for spreadsheets: the BOM, CRLF line ends, the formula-cell guard on every text cell
 * (a name such as `=cmd|...` stays text); a batch of rows at a time, never the whole file in memory.
 */
async function* csvFile(header: readonly string[], batches: AsyncIterable<Cell[][]>): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  yield encoder.encode(BOM + csvLine(header));
  for await (const rows of batches) if (rows.length > 0) yield encoder.encode(rows.map(csvLine).join(""));
}

/** A file's bytes read through once: their count, and the bytes themselves when they fit in `keepUpTo`. */
export async function measureFile(
  body: AsyncGenerator<Uint8Array>,
  keepUpTo: number,
): Promise<{ size: number; bytes?: Buffer }> {
  let size = 0;
  let kept: Uint8Array[] | undefined = keepUpTo > 0 ? [] : undefined;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > keepUpTo) kept = undefined; // past the cap the rest is only counted
    kept?.push(chunk);
  }
  return kept ? { size, bytes: Buffer.concat(kept) } : { size };
}
