/**
 * The employee CSVs the job benchmarks feed in: seeded, so every run sees the same file, and varied
 * the way a real HR export is (1–4 interests from fifty, ten departments, a budget on most rows),
 * so the matcher's per-job memo gets few repeats to live on.
 */
import { prng } from "./table.js";

const HOBBIES = [
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
];
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
  '"Research, Development"',
];
const FIRST = ["Ada", "Grace", "Alan", "Zoë", "José", "Mei", "Olu", "Priya", "Lars", "Fatima", "Noah", "Ines"];
const LAST = ["Lovelace", "Hopper", "Turing", "Núñez", "Okafor", "Chen", "Sharma", "Berg", "Haddad", "O'Brien"];
const BUDGETS = ["", "", "25", "40", "50", "75", "100", "$150"];

/** A CSV with a header and `rows` valid employee rows (name, department, interests, budget). */
export function makeEmployeeCsv(rows: number, seed = 42): string {
  const rand = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
  const lines = ["name,department,interests,budget"];
  for (let i = 0; i < rows; i++) {
    const interests: string[] = [];
    for (let k = 1 + Math.floor(rand() * 4); k > 0; k--) interests.push(pick(HOBBIES));
    lines.push(
      `${pick(FIRST)} ${pick(LAST)} ${i},${pick(DEPARTMENTS)},${interests.join(rand() < 0.8 ? ";" : " | ")},${pick(BUDGETS)}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
