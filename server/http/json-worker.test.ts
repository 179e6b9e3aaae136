/**
 * The body worker gives back what JSON.parse would (any JSON, across many slices, "__proto__" as a
 * plain member), refuses what nests too deep or is not JSON as the main thread would, and asks
 * callers past its bound in bytes to come back later.
 */
import fc from "fast-check";
import { parseElsewhere as parseBytes } from "./json-worker.js";

const DEPTH = 100;
const parseElsewhere = (text: string, depth: number) => parseBytes(Buffer.from(text), depth);
const parsed = async (text: string) => {
  const answer = await parseElsewhere(text, DEPTH);
  if (answer.kind !== "parsed") throw new Error(`not parsed: ${answer.kind}`);
  return answer.value;
};

describe("parseElsewhere", () => {
  it("gives back any JSON value as JSON.parse does", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        const text = JSON.stringify(value);
        expect(await parsed(text)).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: 200 },
    );
  });

  it("gives back values that take many slices, members in order and whole", async () => {
    const people = Array.from({ length: 20_000 }, (_, i) => ({ i, name: `p${i}`, tags: [i % 2 === 0, null, -i / 3] }));
    const wide = Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`k${i}`, i % 3 === 0 ? {} : [`v${i}`]]));
    const text = JSON.stringify({ people, wide, last: "end", "1": "an index key" });
    const value = await parsed(text);
    expect(value).toStrictEqual(JSON.parse(text));
    // members in JSON.parse's order (an index-like key first)
    expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(text)));
  });

  it('keeps "__proto__" a member, as JSON.parse does, not the prototype', async () => {
    const value = await parsed('{"__proto__": {"polluted": true}, "a": [{"__proto__": 1}]}');
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value as object)).toEqual(["__proto__", "a"]);
    expect(JSON.stringify(value)).toBe('{"__proto__":{"polluted":true},"a":[{"__proto__":1}]}');
  });

  it("refuses nesting past the limit, and takes it up to the limit", async () => {
    const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
    expect(await parseElsewhere(nested(DEPTH + 1), DEPTH)).toEqual({ kind: "deeper" });
    expect(await parseElsewhere(nested(200_000), DEPTH)).toEqual({ kind: "deeper" });
    expect(JSON.stringify(await parsed(nested(DEPTH)))).toBe(nested(DEPTH));
  });

  it("tells what is not JSON in JSON.parse's words", async () => {
    const text = `{"a": "${"x".repeat(300_000)}", }`;
    const error = (() => {
      try {
        JSON.parse(text);
      } catch (e) {
        return String(e);
      }
    })();
    expect(await parseElsewhere(text, DEPTH)).toEqual({ kind: "invalid", error });
  });

  it("queues a burst by its bytes: every body within the bound is parsed, whatever their number", async () => {
    const text = JSON.stringify(Array.from({ length: 30_000 }, (_, i) => `w${i}`));
    const answers = await Promise.all(Array.from({ length: 24 }, () => parseElsewhere(text, DEPTH)));
    expect(answers.map((a) => a.kind)).toEqual(Array(24).fill("parsed"));
  });

  it("asks a body that would pass the bytes bound to come back later, and serves the next after", async () => {
    const text = JSON.stringify(Array.from({ length: 30_000 }, (_, i) => `w${i}`));
    const bound = 3 * Buffer.byteLength(text);
    const answers = await Promise.all(Array.from({ length: 5 }, () => parseBytes(Buffer.from(text), DEPTH, bound)));
    expect(answers.map((a) => a.kind)).toEqual(["parsed", "parsed", "parsed", "busy", "busy"]);
    expect(await parsed(text)).toHaveLength(30_000);
    // a body larger than the bound alone is still taken
    const alone = await parseBytes(Buffer.from(text), DEPTH, 10);
    expect(alone.kind).toBe("parsed");
  });
});
