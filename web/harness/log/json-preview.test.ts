import fc from "fast-check";
import { previewJson } from "./json-preview.js";

const roomy = { string: 1e9, total: 1e9 };

describe("previewJson", () => {
  it("is JSON.stringify(value, null, 2) when nothing is too long", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(previewJson(value, roomy)).toBe(JSON.stringify(value, null, 2));
      }),
    );
    const odd = { a: undefined, f: () => 1, d: new Date(0), list: [undefined, NaN, () => 1], n: -0 };
    expect(previewJson(odd, roomy)).toBe(JSON.stringify(odd, null, 2));
    expect(previewJson(null)).toBe("null");
  });

  it("shows the start of a long string and its length", () => {
    const csv = "name,department\n".repeat(100_000);
    const text = previewJson({ arguments: { csv } });
    expect(text.length).toBeLessThan(2_200);
    expect(text).toContain('"csv": "name,department\\nname,department');
    expect(text).toContain("… (1,600,000 characters in all)");
  });

  it("stops after the total, closing what it opened", () => {
    let read = 0;
    const everyone = Array.from({ length: 200_000 }, (_, i) => ({ name: `Person ${i}`, gifts: ["a", "b"] }));
    // counts the people the preview looks at: it must stop near the total, not walk all 200,000
    const people = new Proxy(everyone, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) read++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const text = previewJson({ people }, { string: 100, total: 5_000 });
    expect(read).toBeLessThan(1_000);
    expect(text.length).toBeLessThan(5_500);
    expect(text).toContain("… (cut after 5,000 characters)");
    expect(text.trimEnd().endsWith("]\n}")).toBe(true);
  });
});
