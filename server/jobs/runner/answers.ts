/**
 * The matcher's answers, remembered for the length of a job. The matcher is pure, so people who
 * ask the same thing share one answer: the same interests in any order or case, once each, with
 * the same department, budget, occasion and language. Equal gifts across answers become one object
 * too, so a stored result can write each gift once (see result-codec.ts).
 */
import type { Gift } from "../../../shared/tools.js";
import type { MatchGifts, MatchRequest } from "../../gifts/matcher.js";

/** The interests as the matcher is asked about them: lower-cased, trimmed, each once, sorted. */
export function canonicalInterests(interests: readonly string[]): string[] {
  const out = [...new Set(interests.map((i) => i.trim().toLowerCase()))].filter((i) => i !== "");
  return out.sort();
}

/** Ids stay below this, so that two of them make one exact number (below 2^42) as a key. */
const ID_SPACE = 2 ** 21;

/** Numbers 0, 1, 2, … for distinct values, in the order they are first seen. */
function createIds<K>() {
  const ids = new Map<K, number>();
  return {
    of(value: K): number {
      let id = ids.get(value);
      if (id === undefined) ids.set(value, (id = ids.size));
      return id;
    },
    size: () => ids.size,
  };
}

/**
 * Wraps `match`, which is asked with the canonical interests so that an answer depends only on
 * what it is remembered by. Keeps about `limit` answers, the most recently used, in two generations
 * (a hit in the old one moves it to the new); the ids behind the keys are forgotten all at once
 * when there are more than four times `limit` of them, and the answers with them.
 */
export function createAnswers(match: MatchGifts, limit: number): (request: MatchRequest) => Gift[] {
  const half = Math.max(1, Math.floor(Math.min(limit, ID_SPACE / 8) / 2));
  let young = new Map<number, Gift[]>();
  let old = new Map<number, Gift[]>();
  // Keys are numbers, not strings built per person: a request's parts become small ids. The
  // extract stage gives every distinct interests text one array, so lists are known by identity.
  let lists = new Map<readonly string[], number>();
  let canonical = createIds<string>();
  let contexts = createIds<string>();
  let departments = createIds<string | undefined>();
  let budgets = createIds<number>();
  let pairs = createIds<number>();
  let sorted: string[][] = []; // canonical interests by id
  let gifts = new Map<string, Map<string, Gift>>(); // by id, then reason
  let giftCount = 0;
  let last: { occasion: string; count: number; text: string | undefined; where: string; id: number } | undefined;

  function forgetAll() {
    young = new Map();
    old = new Map();
    lists = new Map();
    canonical = createIds();
    contexts = createIds();
    departments = createIds();
    budgets = createIds();
    pairs = createIds();
    sorted = [];
    gifts = new Map();
    giftCount = 0;
    last = undefined;
  }

  function interestsId(interests: readonly string[]): number {
    let id = lists.get(interests);
    if (id === undefined) {
      const list = canonicalInterests(interests);
      id = canonical.of(JSON.stringify(list));
      sorted[id] ??= list;
      lists.set(interests, id);
    }
    return id;
  }

  /** occasion, count, text, locale and currency hardly ever change within a job: compared with the last request's. */
  function contextId({ occasion, count, text, locale = "en", currency = "USD" }: MatchRequest): number {
    const where = `${locale} ${currency}`; // the language and the money, one key
    if (last?.occasion !== occasion || last.count !== count || last.text !== text || last.where !== where) {
      const id = contexts.of(JSON.stringify([occasion, count, text ?? null, where]));
      last = { occasion, count, text, where, id };
    }
    return last.id;
  }

  /** Everything but the interests, as one id. */
  function restId(request: MatchRequest): number {
    const pair = pairs.of(contextId(request) * ID_SPACE + departments.of(request.department));
    return pairs.of(pair * ID_SPACE + budgets.of(request.budget));
  }

  function intern(gift: Gift): Gift {
    let byReason = gifts.get(gift.id);
    if (!byReason) gifts.set(gift.id, (byReason = new Map<string, Gift>()));
    const known = byReason.get(gift.reason);
    if (known === undefined) {
      byReason.set(gift.reason, gift);
      giftCount++;
      return gift;
    }
    const same = known.name === gift.name && known.price === gift.price && known.category === gift.category;
    return same ? known : gift;
  }

  return (request) => {
    if (lists.size + pairs.size() + giftCount > 8 * half) forgetAll();
    const interests = interestsId(request.interests);
    const key = interests * ID_SPACE + restId(request);
    let answer = young.get(key);
    if (answer !== undefined) return answer;
    answer = old.get(key);
    if (answer === undefined) answer = match({ ...request, interests: sorted[interests] }).map(intern);
    if (young.size >= half) {
      old = young;
      young = new Map();
    }
    young.set(key, answer);
    return answer;
  };
}
