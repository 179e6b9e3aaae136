/**
 * How the people of a result are stored: in chunks of a fixed size, each a JSON document where a
 * person is a short tuple, and the interest and gift lists that people share (the same text, the
 * matcher's answer to the same request) are written once per chunk. Pages read only the chunks
 * they need, and decoding parses the chunk.
 */
import * as z from "zod/mini";
import { GiftSchema, type Gift, type PersonResult } from "../../shared/tools.js";

/**
 * People per chunk. Large enough that gift lists shared across a big file are written a few
 * times, not once per thousand people; small enough that a page decodes in milliseconds.
 */
export const CHUNK_SIZE = 5000;

const ChunkSchema = z.object({
  interests: z.array(z.array(z.string())),
  gifts: z.array(z.array(GiftSchema)),
  // [row, name, department, interests list, budget, gift list]
  people: z.array(z.tuple([z.number(), z.string(), z.nullable(z.string()), z.number(), z.number(), z.number()])),
});
type Chunk = z.infer<typeof ChunkSchema>;

/** Serializes `people[from, to)`; lists are shared by identity, so equal lists should be one array. */
export function encodeChunk(people: readonly PersonResult[], from: number, to: number): string {
  const chunk: Chunk = { interests: [], gifts: [], people: [] };
  const interests = new Map<string[], number>();
  const gifts = new Map<Gift[], number>();
  for (let i = from; i < to; i++) {
    const p = people[i];
    chunk.people.push([p.row, p.name, p.department, indexOf(interests, chunk.interests, p.interests), p.budget, indexOf(gifts, chunk.gifts, p.gifts)]);
  }
  return JSON.stringify(chunk);
}

function indexOf<T>(seen: Map<T, number>, out: T[], value: T): number {
  let i = seen.get(value);
  if (i === undefined) {
    i = out.push(value) - 1;
    seen.set(value, i);
  }
  return i;
}

/** The people in a stored chunk; throws if the chunk is not one `encodeChunk` wrote. */
export function decodeChunk(body: string): PersonResult[] {
  const chunk = ChunkSchema.parse(JSON.parse(body));
  return chunk.people.map(([row, name, department, i, budget, g]) => {
    const interests = chunk.interests[i];
    const gifts = chunk.gifts[g];
    if (!interests || !gifts) throw new Error(`a stored result chunk refers to a missing list (${i}, ${g})`);
    return { row, name, department, interests, budget, gifts };
  });
}
