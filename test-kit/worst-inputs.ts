/**
 * The worst input of each shape a person or a script could send, shared by the worst-input test
 * (`server/jobs/worst-input.test.ts`: over HTTP, every probe of the server answered) and `npm run
 * bench` (input: the event loop's longest stall, against its bound). `scale` shrinks each for the
 * bench's smoke run, where the limits no longer refuse them.
 */
import { HOBBIES } from "./employee-csv.js";
import { encodeText, staffXlsx, zipBombXlsx } from "./staff-files.js";

const MB = 1024 * 1024;
const HEADER = "name,department,interests";

export const words = (n: number, from = 0): string[] => Array.from({ length: n }, (_, i) => `w${from + i}`);

/** A CSV as `csv` text, and the code the server refuses it by, or null for one it runs to the end. */
export type WorstCsv = [name: string, csv: () => string, refusedBy: string | null];

export function worstCsvs(scale = 1): WorstCsv[] {
  const mb = (n: number) => Math.floor(n * MB * scale);
  return [
    ["one huge cell (8 MB)", () => `${HEADER}\nA,D,${"x".repeat(mb(8) - 100)}\n`, "input_too_large"],
    ["many tiny rows (8 MB of them)", () => `${HEADER}\n${"a,b,c\n".repeat(mb(1.3))}`, "too_many_rows"],
    [
      "deep quoting (a cell of 2 million escaped quotes: an 8 MB request, as JSON escapes each)",
      () => `${HEADER}\nA,D,"${'""'.repeat(mb(2) - 64)}"\n`,
      "input_too_large",
    ],
    ["a quote never closed, 8 MB on", () => `${HEADER}\nA,D,"${"x,y,z\n".repeat(mb(1.3))}`, "input_too_large"],
    [
      "1,000,000 interests as CSV",
      () => `${HEADER}\nA,D,"${words(Math.floor(1_000_000 * scale)).join(";")}"\n`,
      "input_too_large",
    ],
    ["an 8 MB single line", () => `${HEADER},${"x;".repeat(mb(4) - 20)}`, "input_too_large"],
    [
      "200,000 tiny rows, the most one job takes, run to the end",
      () =>
        `${HEADER}\n${Array.from({ length: 200_000 * scale }, (_, i) => `P${i},D,${HOBBIES[i % 50]}`).join("\n")}\n`,
      null,
    ],
    [
      "200,000 rows that are all skipped (each repeats the first), run to the end",
      () => `${HEADER}\n${"Kim,D,tea\n".repeat(200_000 * scale)}`,
      null,
    ],
    [
      "the most interests a person may have (200), for as many people as 8 MB holds, run to the end",
      () => {
        const lines = [HEADER];
        for (let i = 0, length = 0; length < mb(7.5); i++) {
          const line = `P${i},D,"${words(200, i * 200)
            .map((w, k) => `${HOBBIES[k % 50]} ${w}`)
            .join(";")}"`;
          lines.push(line);
          length += line.length + 1;
        }
        return lines.join("\n");
      },
      null,
    ],
    [
      "the longest cells allowed (32,767 characters of interests), 8 MB of them, run to the end",
      () => {
        const cell = words(5_000).join(" ").slice(0, 32_000);
        const rows = Array.from({ length: Math.max(1, 240 * scale) }, (_, i) => `P${i},D,"${HOBBIES[i % 50]} ${cell}"`);
        return `${HEADER}\n${rows.join("\n")}\n`;
      },
      null,
    ],
  ];
}

/** A staff file's bytes, and whether it reads at full size (a bomb does not, nor 16 MB of UTF-16). */
export type WorstFile = [name: string, bytes: () => Promise<Uint8Array>, readable: boolean];

export function worstFiles(scale = 1): WorstFile[] {
  const rows = (n: number) => Math.max(1, Math.floor(n * scale));
  return [
    [
      "a 16 MB UTF-16 CSV of tiny rows",
      async () => encodeText(`name,interests\n${"a,b\n".repeat(rows(2 * MB - 10))}`, "utf-16le-bom"),
      false,
    ],
    [
      "a CP949 CSV of 100,000 rows",
      async () =>
        encodeText(
          `이름,관심사\n${Array.from({ length: rows(100_000) }, (_, i) => `김민준${i},커피;등산;${"책".repeat(5)}`).join("\n")}\n`,
          "cp949",
        ),
      true,
    ],
    [
      "an .xlsx of 50,000 rows",
      () =>
        staffXlsx([
          ["Name", "Team", "Hobbies", "Budget"],
          ...Array.from({ length: rows(50_000) }, (_, i) => [`P${i}`, `D${i % 9}`, "coffee;tea", 20 + (i % 30)]),
        ]),
      true,
    ],
    ["a zip bomb (a sheet of 400 MB of zeros)", async () => zipBombXlsx(400 * scale), false],
    [
      "a zip bomb whose directory lies (40 MB said, 400 MB held)",
      async () => zipBombXlsx(400 * scale, { declaredBytes: 40 * MB * scale }),
      false,
    ],
  ];
}
