/**
 * Free text (English, Korean or both) as interest tag and occasion ids: two-word phrases first, then
 * words; memoized per string, as bulk jobs repeat the same interests thousands of times.
 */
import { oncePer } from "../../shared/format.js";
import { DEPARTMENT_TAGS, OCCASION_WORDS, TAG_WORDS, words } from "./vocabulary.js";
import { DEPARTMENT_WORDS_KO, OCCASION_WORDS_KO, TAG_WORDS_KO } from "./vocabulary-ko.js";

/** Each name's id by the name itself and its phrases in every vocabulary given. */
function phraseMap(names: string[], ...vocabularies: Record<string, string[]>[]): Map<string, number[]> {
  const map = new Map<string, number[]>();
  for (const [id, name] of names.entries()) {
    for (const phrase of [name, ...vocabularies.flatMap((vocabulary) => vocabulary[name] ?? [])]) {
      const key = words(phrase).join(" ");
      if (key === "") continue;
      const ids = map.get(key) ?? [];
      if (!ids.includes(id)) ids.push(id);
      map.set(key, ids);
    }
  }
  return map;
}

/** Every match in `ws`, two-word phrases winning over the single words they contain. */
function lookup(map: Map<string, number[]>, ws: string[]): number[] {
  const found: number[] = [];
  for (let i = 0; i < ws.length; i++) {
    const pair = i + 1 < ws.length ? map.get(`${ws[i]} ${ws[i + 1]}`) : undefined;
    const hit = pair ?? map.get(ws[i]);
    if (pair) i++;
    if (hit) for (const id of hit) if (!found.includes(id)) found.push(id);
  }
  return found;
}

/** Answers kept per lookup (all are forgotten when full). */
const KEPT = 50_000;

export function createTextIndex(tagNames: string[], occasionNames: string[]) {
  const tagId = new Map(tagNames.map((t, i) => [t, i]));
  const tagPhrases = phraseMap(tagNames, TAG_WORDS, TAG_WORDS_KO);
  const occasionPhrases = phraseMap(occasionNames, OCCASION_WORDS, OCCASION_WORDS_KO);
  const departments = new Map<string, number[]>();
  for (const [d, tags] of Object.entries(DEPARTMENT_TAGS)) {
    const ids = tags.flatMap((t) => tagId.get(t) ?? []);
    departments.set(d, ids);
    // a Korean department's words, as words() gives them ("개발팀" → 개발)
    for (const name of DEPARTMENT_WORDS_KO[d] ?? []) departments.set(words(name).join(" "), ids);
  }
  const tagsOf = oncePer((text: string) => lookup(tagPhrases, words(text)), KEPT);
  return {
    tagsOf,
    occasionOf: oncePer((text: string) => lookup(occasionPhrases, words(text))[0] ?? -1, KEPT),
    departmentTagsOf: oncePer((department: string) => {
      const key = department.trim().toLowerCase();
      const direct = departments.get(key) ?? words(key).flatMap((w) => departments.get(w) ?? []);
      return [...new Set([...direct, ...tagsOf(department)])];
    }, KEPT),
  };
}

let placing: ReturnType<typeof createTextIndex> | undefined;

/** Whether `interest` names an interest tag the vocabulary knows: what a job counts as placed. */
export function interestPlaced(interest: string): boolean {
  placing ??= createTextIndex(Object.keys(TAG_WORDS), []);
  return placing.tagsOf(interest).length > 0;
}
