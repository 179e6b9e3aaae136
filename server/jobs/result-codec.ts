/**
 * How the people of a result are stored: in chunks of a fixed size, each a JSON document where a
 * person is a short tuple and what people share (interests, answers, gifts) is written once.
 */
import * as z from "zod/mini";
import { GiftSchema, type Gift, type PersonResult } from "../../shared/tools.js";

/** People per chunk: encoded in a millisecond or two, within one slice, and a page decodes little more than it shows. */
export const CHUNK_SIZE = 1000;

// [row, name, department, interests list, budget, gift list]
const PersonTuple = z.tuple([z.number(), z.string(), z.nullable(z.string()), z.number(), z.number(), z.number()]);
const Index = z.number().check(z.int(), z.gte(0));

// [id, name, price, category, reason]
const GiftTuple = z.tuple([z.string(), z.string(), z.number(), z.string(), z.string()]);

/** Each gift written once, and gift lists as indexes into `gifts`. */
const ChunkSchema = z.object({
  v: z.literal(2),
  interests: z.array(z.array(z.string())),
  gifts: z.array(GiftTuple),
  lists: z.array(z.array(Index)),
  people: z.array(PersonTuple),
});
type Chunk = z.infer<typeof ChunkSchema>;

/** The first shape, still read: gift lists in full. */
const ChunkV1Schema = z.object({
  interests: z.array(z.array(z.string())),
  gifts: z.array(z.array(GiftSchema)),
  people: z.array(PersonTuple),
});

/** Serializes `people[from, to)`; lists and gifts are shared by identity, so equal ones should be one object. */
export function encodeChunk(people: readonly PersonResult[], from: number, to: number): string {
  const chunk: Chunk = { v: 2, interests: [], gifts: [], lists: [], people: [] };
  const interests = new Map<string[], number>();
  const gifts = new Map<Gift, number>();
  const lists = new Map<Gift[], number>();
  const gift = (g: Gift) => indexOf(gifts, g, () => chunk.gifts.push([g.id, g.name, g.price, g.category, g.reason]));
  for (let i = from; i < to; i++) {
    const p = people[i];
    const list = indexOf(lists, p.gifts, () => chunk.lists.push(p.gifts.map(gift)));
    const ofInterests = indexOf(interests, p.interests, () => chunk.interests.push(p.interests));
    chunk.people.push([p.row, p.name, p.department, ofInterests, p.budget, list]);
  }
  return JSON.stringify(chunk);
}

/** The index of `value`, added with `push` (answering the new length) the first time. */
function indexOf<T>(seen: Map<T, number>, value: T, push: () => number): number {
  let i = seen.get(value);
  if (i === undefined) seen.set(value, (i = push() - 1));
  return i;
}

/** The people in a stored chunk; throws if the chunk is not one `encodeChunk` wrote. */
export function decodeChunk(body: string): PersonResult[] {
  const raw: unknown = JSON.parse(body);
  const v2 = typeof raw === "object" && raw !== null && "v" in raw;
  const chunk = v2 ? ChunkSchema.parse(raw) : ChunkV1Schema.parse(raw);
  const giftLists = "lists" in chunk ? giftListsOf(chunk) : chunk.gifts;
  return chunk.people.map(([row, name, department, i, budget, g]) => {
    const interests = chunk.interests[i];
    const gifts = giftLists[g];
    if (!interests || !gifts) fail(`a stored result chunk refers to a missing list (${i}, ${g})`);
    return { row, name, department, interests, budget, gifts };
  });
}

/** A chunk's gift lists, each gift written out again from its one tuple. */
function giftListsOf({ gifts, lists }: Chunk): Gift[][] {
  const byIndex = gifts.map(([id, name, price, category, reason]): Gift => ({ id, name, price, category, reason }));
  return lists.map((list) =>
    list.map((g) => byIndex[g] ?? fail(`a stored result chunk refers to a missing gift (${g})`)),
  );
}

function fail(message: string): never {
  throw new Error(message);
}
