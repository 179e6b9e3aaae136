/**
 * Numbers as people see them in a sheet: a number as Excel shows it (15 significant digits, so no
 * float noise, integers without ".0"), and a number under a date format as an ISO date (with its
 * time when it has one), in either of Excel's date systems.
 */
import type { Clock } from "./xml-part.js";
import { parseXmlWhole } from "./xml-part.js";
import type { WorkbookZip } from "./unzip.js";

/** How a style shows a number: as itself, a date (maybe with a time), or a time of day. */
export type NumberKind = "number" | "date" | "time";

/** Excel's built-in formats that are dates (14–17, 22, 27–36, 50–58) and times (18–21, 45–47). */
const BUILT_IN: Record<number, NumberKind> = {};
const DATES = [14, 15, 16, 17, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58];
for (const id of DATES) BUILT_IN[id] = "date";
for (const id of [18, 19, 20, 21, 45, 46, 47]) BUILT_IN[id] = "time";

/** What a custom format code shows: quoted text, escapes, colours and conditions aside. */
export function formatKind(code: string): NumberKind {
  const bare = code
    .split(";")[0]
    .replace(/"[^"]*"|\\.|_.|\*./g, "")
    .replace(/\[(?!h\]|hh\]|m\]|mm\]|s\]|ss\])[^\]]*\]/gi, "")
    .toLowerCase();
  if (/[yd]/.test(bare)) return "date";
  if (/[hs]/.test(bare)) return "time"; // "h:mm", "mm:ss": an m beside them is minutes
  return /m/.test(bare) ? "date" : "number"; // "mmm": a month alone
}

/** The kind each cell style (`s`, an index into `cellXfs`) shows numbers as. */
export async function readStyles(
  zip: WorkbookZip,
  path: string | null,
  clock: Clock,
  pace: () => Promise<void>,
): Promise<NumberKind[]> {
  if (path === null) return [];
  const custom = new Map<number, NumberKind>();
  const kinds: NumberKind[] = [];
  let inCellXfs = false;
  await parseXmlWhole(
    zip,
    path,
    {
      open(name, a) {
        if (name === "numFmt") custom.set(Number(a.numFmtId), formatKind(a.formatCode ?? ""));
        else if (name === "cellXfs") inCellXfs = true;
        else if (name === "xf" && inCellXfs) {
          const id = Number(a.numFmtId ?? 0);
          kinds.push(custom.get(id) ?? BUILT_IN[id] ?? "number");
        }
      },
      close(name) {
        if (name === "cellXfs") inCellXfs = false;
      },
    },
    clock,
    pace,
  );
  return kinds;
}

/** A number as Excel shows it in a General cell: at most 15 significant digits. */
export function numberText(value: number): string {
  return Number.isFinite(value) ? String(Number(value.toPrecision(15))) : "";
}

const DAY_MS = 86_400_000;
/** Day 0 of each system: 1899-12-30 (after Excel's phantom 1900-02-29) and 1904-01-01. */
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/** A date serial as "2024-05-01", "2024-05-01T13:45:00", or (a time format) "13:45:00". */
export function dateText(serial: number, kind: "date" | "time", date1904: boolean): string {
  if (!Number.isFinite(serial) || serial < 0 || serial > 2_958_465) return numberText(serial);
  // 1900 serials before 1900-03-01 count the day Excel wrongly believes was 1900-02-29
  const days = !date1904 && serial < 61 ? serial + 1 : serial;
  const ms = (date1904 ? EPOCH_1904 : EPOCH_1900) + Math.round(days * 86_400) * 1000;
  const iso = new Date(ms).toISOString();
  if (kind === "time" && serial < 1) return iso.slice(11, 19);
  return ms % DAY_MS === 0 ? iso.slice(0, 10) : iso.slice(0, 19);
}
