/**
 * The CP949 table against iconv-lite's over every pair of bytes: the 2,350 + 8,822 syllables,
 * symbols and hanja; a lead byte cut off between two slices; what happens to pairs CP949 lacks.
 */
import iconv from "iconv-lite";
import { createCp949Decoder } from "./cp949.js";

describe("createCp949Decoder", () => {
  it("decodes every pair of bytes as iconv-lite's CP949 does", () => {
    let checked = 0;
    for (let lead = 0x81; lead <= 0xfe; lead++) {
      for (let trail = 0x41; trail <= 0xfe; trail++) {
        const bytes = Uint8Array.from([lead, trail]);
        const expected = iconv.decode(Buffer.from(bytes), "cp949");
        if (expected.includes("\uFFFD") || expected.length !== 1) continue;
        expect(createCp949Decoder(false).decode(bytes), `${lead.toString(16)} ${trail.toString(16)}`).toBe(expected);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(17_000); // 11,172 syllables, symbols and hanja
  });

  it("knows every Hangul syllable, the ones EUC-KR lacks included", () => {
    const all = Array.from({ length: 0xd7a4 - 0xac00 }, (_, i) => String.fromCharCode(0xac00 + i)).join("");
    expect(createCp949Decoder(true).decode(iconv.encode(all, "cp949"))).toBe(all);
  });

  it("keeps a lead byte cut off at the end of a slice for the next", () => {
    const bytes = iconv.encode("똠방,각하", "cp949");
    const decoder = createCp949Decoder(true);
    const text = [1, 3, 4, bytes.length].map((end, i, ends) =>
      decoder.decode(bytes.subarray(ends[i - 1] ?? 0, end), { stream: true }),
    );
    expect(text.join("") + decoder.decode()).toBe("똠방,각하");
  });

  it("refuses an undefined pair when fatal, and otherwise marks it without eating the ASCII after it", () => {
    expect(() => createCp949Decoder(true).decode(Uint8Array.from([0xc9, 0x2c]))).toThrow(/not valid/);
    expect(createCp949Decoder(false).decode(Uint8Array.from([0x41, 0xff, 0x2c, 0xb0]))).toBe("A\uFFFD,\uFFFD");
  });
});
