/**
 * Employee CSVs of any size for tests and benchmarks, from one generator. Free of any test
 * framework, so child processes and `npm run bench` use it too. Every row is valid; the header is
 * `name,department,interests,budget`; every line ends with a newline.
 */
import { seededRandom } from "../shared/seeded-random.js";

/**
 * Fifty everyday interests, as people write them. The golden matcher test draws its requests from
 * them too: changing this list means recording server/gifts/matcher-golden.json again.
 */
export const HOBBIES = [
  "coffee",
  "tea",
  "cooking",
  "baking",
  "chocolate",
  "wine",
  "beer",
  "cocktails",
  "books",
  "writing",
  "learning",
  "tech",
  "gaming",
  "board games",
  "puzzles",
  "music",
  "podcasts",
  "photography",
  "gym",
  "running",
  "yoga",
  "hiking",
  "camping",
  "cycling",
  "gardening",
  "plants",
  "travel",
  "art",
  "painting",
  "crafts",
  "knitting",
  "movies",
  "fashion",
  "skincare",
  "pets",
  "dogs",
  "cats",
  "football",
  "golf",
  "tennis",
  "fishing",
  "climbing",
  "skiing",
  "surfing",
  "meditation",
  "sustainability",
  "design",
  "history",
  "science",
  "space",
] as const;

export type EmployeeCsvOptions = {
  /**
   * Without a seed, row i takes the i-th entry of each awkward list in turn (row 2 of the file is
   * always `"Ada Lovelace 0","Engineering","coffee;hiking",` with no budget). With one, each field is
   * drawn from the seeded generator out of a varied vocabulary, as a real HR export varies: 1–4 of
   * the fifty hobbies, ten departments, a budget on most rows, so a matcher's memo gets few repeats.
   */
  seed?: number;
  /** Ends lines with CRLF instead of LF. */
  crlf?: boolean;
};

type Row = { name: string; department: string; interests: string; budget: string };

const AWKWARD_NAMES = ["Ada Lovelace", "Zoë Ærø", "José Núñez", "李小龍", "Ólafur 🎉 Arnalds", "O'Brien, Pat"];
const AWKWARD_DEPARTMENTS = ["Engineering", "Sales, EMEA", "Research & Development", "Customer Support"];
const AWKWARD_INTERESTS = ["coffee;hiking", "books|music", "yoga; tea |coffee", "", "music"];

/** Row i of the awkward file: names with commas and Unicode, both separators, every third budget left out. */
const awkwardRow = (i: number): Row => ({
  name: `${AWKWARD_NAMES[i % AWKWARD_NAMES.length]} ${i}`,
  department: AWKWARD_DEPARTMENTS[i % AWKWARD_DEPARTMENTS.length],
  interests: AWKWARD_INTERESTS[i % AWKWARD_INTERESTS.length],
  budget: i % 3 === 0 ? "" : String(20 + (i % 5) * 10),
});

const FIRST = ["Ada", "Grace", "Alan", "Zoë", "José", "Mei", "Olu", "Priya", "Lars", "Fatima", "Noah", "Ines"];
const LAST = ["Lovelace", "Hopper", "Turing", "Núñez", "Okafor", "Chen", "Sharma", "Berg", "Haddad", "O'Brien"];
const DEPARTMENTS = [
  "Engineering",
  "Sales",
  "Marketing",
  "Finance",
  "Human Resources",
  "Customer Support",
  "Design",
  "Legal",
  "Operations",
  "Research, Development",
];
const BUDGETS = ["", "", "25", "40", "50", "75", "100", "$150"];

/** Rows drawn in order from one seeded generator. */
function variedRows(seed: number): (i: number) => Row {
  const rand = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
  return (i) => {
    const interests: string[] = [];
    for (let k = 1 + Math.floor(rand() * 4); k > 0; k--) interests.push(pick(HOBBIES));
    const name = `${pick(FIRST)} ${pick(LAST)} ${i}`;
    const department = pick(DEPARTMENTS);
    const joined = interests.join(rand() < 0.8 ? ";" : " | ");
    return { name, department, interests: joined, budget: pick(BUDGETS) };
  };
}

const quoted = (field: string) => `"${field.replace(/"/g, '""')}"`;
/** Quotes a field only where CSV needs it. */
const asNeeded = (field: string) => (/[",\r\n]/.test(field) ? quoted(field) : field);

const made = new Map<string, string>();

/**
 * A CSV of a header and `rows` valid employees: awkward rows in turn, or varied ones from `seed`.
 * A file of 10,000 rows or more is made once per process and handed out again.
 */
export function employeeCsv(rows: number, { seed, crlf = false }: EmployeeCsvOptions = {}): string {
  const key = `${rows}/${seed}/${crlf}`;
  const again = made.get(key);
  if (again !== undefined) return again;
  const row = seed === undefined ? awkwardRow : variedRows(seed);
  // the awkward file quotes every text field, the varied one only where it must
  const text = seed === undefined ? quoted : asNeeded;
  const nl = crlf ? "\r\n" : "\n";
  const lines = ["name,department,interests,budget"];
  for (let i = 0; i < rows; i++) {
    const r = row(i);
    lines.push(`${text(r.name)},${text(r.department)},${text(r.interests)},${r.budget}`);
  }
  const csv = lines.join(nl) + nl;
  if (rows >= 10_000) made.set(key, csv);
  return csv;
}
