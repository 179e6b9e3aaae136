/**
 * Pins the matcher's exact output for 2,000 seeded, varied requests, so speed work on the
 * matcher cannot change a single suggested gift or reason. The fixture stores, per request,
 * the picked ids and a short hash of the full JSON output (the full text would not fit a small file).
 * When the ranking or wording changes on purpose, rewrite the fixture with UPDATE_GOLDEN=1.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { seededRandom } from "../../shared/seeded-random.js";
import { HOBBIES } from "../../test-kit/employee-csv.js";
import type { MatchRequest } from "./matcher.js";
import { matchGifts } from "./matcher.js";

const FIXTURE = fileURLToPath(new URL("./matcher-golden.json", import.meta.url));
/** The same for won: the first 500 requests with their budgets in won (×1,300), answered in Korean. */
const FIXTURE_KRW = fileURLToPath(new URL("./matcher-golden-krw.json", import.meta.url));
const inWon = (request: MatchRequest): MatchRequest => ({
  ...request,
  budget: Math.round(request.budget * 1300),
  currency: "KRW",
  locale: "ko",
});

/** The fifty hobbies (one of them capitalized), then spellings the matcher must cope with. */
const INTERESTS = [...HOBBIES.map((h) => (h === "baking" ? "Baking" : h)), "Espressos", "earl grey", "", "quantum"];
const DEPARTMENTS = [
  undefined,
  "Engineering",
  "Sales",
  "Marketing",
  "Finance",
  " Human Resources ",
  "Customer Support",
  "Design",
  "Legal",
  "Operations",
  "Research, Development",
  "Kitchen",
];
const OCCASIONS = [
  "birthday",
  "farewell",
  "Secret Santa",
  "new baby",
  "thank you",
  "holiday",
  "work anniversary",
  "something else",
  "baby shower",
];
const TEXTS = [
  undefined,
  undefined,
  "She is an avid marathon runner",
  "loves ceramics and tea",
  "into vinyl, jazz and board games",
  "no idea",
];
const BUDGETS = [5, 9.99, 12.5, 20, 25, 40, 50, 75, 100, 150, 250, 600, 1000];

/** `n` varied requests: 0–4 interests, optional department and text, odd budgets and counts. */
function goldenRequests(n: number, seed = 7): MatchRequest[] {
  const rand = seededRandom(seed); // the same requests on every run
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
  return Array.from({ length: n }, () => ({
    occasion: pick(OCCASIONS),
    budget: rand() < 0.2 ? Math.round(rand() * 30000) / 100 : pick(BUDGETS),
    interests: Array.from({ length: Math.floor(rand() * 5) }, () => pick(INTERESTS)),
    department: pick(DEPARTMENTS),
    text: pick(TEXTS),
    count: rand() < 0.6 ? 3 : 1 + Math.floor(rand() * 12),
  }));
}

/** What the fixture keeps of one answer: the ids, and a hash that covers every field and reason. */
function fingerprint(request: MatchRequest): [ids: string, hash: string] {
  const gifts = matchGifts(request);
  const hash = createHash("sha256").update(JSON.stringify(gifts)).digest("hex").slice(0, 16);
  return [gifts.map((g) => g.id).join(" "), hash];
}

if (process.env.UPDATE_GOLDEN) {
  const lines = goldenRequests(2000).map((request) => JSON.stringify(fingerprint(request)));
  writeFileSync(FIXTURE, `[\n${lines.join(",\n")}\n]\n`);
  const won = goldenRequests(500).map((request) => JSON.stringify(fingerprint(inWon(request))));
  writeFileSync(FIXTURE_KRW, `[\n${won.join(",\n")}\n]\n`);
}

describe("matchGifts golden answers", () => {
  it("gives exactly the recorded gifts and reasons for 2,000 seeded requests", () => {
    const expected: [string, string][] = JSON.parse(readFileSync(FIXTURE, "utf8"));
    const requests = goldenRequests(expected.length);
    expect(requests.length).toBe(2000);
    requests.forEach((request, i) => {
      expect({ i, answer: fingerprint(request) }).toEqual({ i, answer: expected[i] });
    });
  });

  it("gives exactly the recorded gifts and reasons in won, and mostly the dollar picks", () => {
    const expected: [string, string][] = JSON.parse(readFileSync(FIXTURE_KRW, "utf8"));
    const requests = goldenRequests(expected.length);
    expect(requests.length).toBe(500);
    let same = 0;
    requests.forEach((request, i) => {
      const answer = fingerprint(inWon(request));
      expect({ i, answer }).toEqual({ i, answer: expected[i] });
      if (answer[0] === fingerprint(request)[0]) same++;
    });
    // the markets' prices keep the dollar order, so a budget worth the same mostly picks the same
    // gifts; rounding to each market's price points moves a few across a budget's edge
    expect(same).toBeGreaterThanOrEqual(350);
  });
});
