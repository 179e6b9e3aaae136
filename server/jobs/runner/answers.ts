/**
 * The matcher's answers, remembered for the length of a job: the matcher is pure, so people who ask
 * the same thing share one answer. Equal gifts become one object, so a result writes each once.
 */
import type { Gift } from "../../../shared/tools.js";
import type { MatchGifts, MatchRequest } from "../../gifts/matcher.js";

/** The interests as the matcher is asked about them: lower-cased, trimmed, each once, sorted. */
export function canonicalInterests(interests: readonly string[]): string[] {
  return [...new Set(interests.map((i) => i.trim().toLowerCase()))].filter((i) => i !== "").sort();
}

/** Ids stay below this, so that two of them make one exact number (below 2^42) as a key. */
const ID_SPACE = 2 ** 21;

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
 * Wraps `match`, asked with the canonical interests. Keeps about `limit` answers, the most recently
 * used, in two generations; the ids behind the keys are forgotten all at once past four times `limit`.
 */
export function createAnswers(match: MatchGifts, limit: number): (request: MatchRequest) => Gift[] {
  const half = Math.max(1, Math.floor(Math.min(limit, ID_SPACE / 8) / 2));
  // Keys are numbers made of small ids, not strings per person; lists are known by identity.
  const fresh = () => ({
    young: new Map<number, Gift[]>(),
    old: new Map<number, Gift[]>(),
    lists: new Map<readonly string[], number>(),
    canonical: createIds<string>(),
    contexts: createIds<string>(),
    departments: createIds<string | undefined>(),
    budgets: createIds<number>(),
    pairs: createIds<number>(),
    sorted: [] as string[][], // canonical interests by id
    gifts: new Map<string, Map<string, Gift>>(), // by id, then reason
    giftCount: 0,
    last: undefined as
      { occasion: string; count: number; text: string | undefined; where: string; id: number } | undefined,
  });
  let m = fresh();

  function interestsId(interests: readonly string[]): number {
    let id = m.lists.get(interests);
    if (id === undefined) {
      const list = canonicalInterests(interests);
      id = m.canonical.of(JSON.stringify(list));
      m.sorted[id] ??= list;
      m.lists.set(interests, id);
    }
    return id;
  }

  /** occasion, count, text, locale and currency hardly ever change within a job: compared with the last request's. */
  function contextId({ occasion, count, text, locale = "en", currency = "USD" }: MatchRequest): number {
    const where = `${locale} ${currency}`; // the language and the money, one key
    if (m.last?.occasion !== occasion || m.last.count !== count || m.last.text !== text || m.last.where !== where) {
      const id = m.contexts.of(JSON.stringify([occasion, count, text ?? null, where]));
      m.last = { occasion, count, text, where, id };
    }
    return m.last.id;
  }

  function restId(request: MatchRequest): number {
    const pair = m.pairs.of(contextId(request) * ID_SPACE + m.departments.of(request.department));
    return m.pairs.of(pair * ID_SPACE + m.budgets.of(request.budget));
  }

  function intern(gift: Gift): Gift {
    let byReason = m.gifts.get(gift.id);
    if (!byReason) m.gifts.set(gift.id, (byReason = new Map<string, Gift>()));
    const known = byReason.get(gift.reason);
    if (known === undefined) {
      byReason.set(gift.reason, gift);
      m.giftCount++;
      return gift;
    }
    const same = known.name === gift.name && known.price === gift.price && known.category === gift.category;
    return same ? known : gift;
  }

  return (request) => {
    if (m.lists.size + m.pairs.size() + m.giftCount > 8 * half) m = fresh();
    const interests = interestsId(request.interests);
    const key = interests * ID_SPACE + restId(request);
    let answer = m.young.get(key);
    if (answer !== undefined) return answer;
    answer = m.old.get(key);
    if (answer === undefined) answer = match({ ...request, interests: m.sorted[interests] }).map(intern);
    if (m.young.size >= half) {
      m.old = m.young;
      m.young = new Map();
    }
    m.young.set(key, answer);
    return answer;
  };
}
