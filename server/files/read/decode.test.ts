/**
 * Telling an encoding: marks, NUL patterns, UTF-8, Korean EUC-KR/CP949 and the rest as a guess;
 * Western text that happens to pair up as CP949 is not taken for Korean; slices split nothing.
 */
import iconv from "iconv-lite";
import { decodeText } from "./decode.js";
import { createPace } from "./pace.js";

const pace = createPace();
const decode = (bytes: Uint8Array, chosen?: Parameters<typeof decodeText>[1]) => decodeText(bytes, chosen, pace);

describe("decodeText", () => {
  it("reads UTF-16 big-endian without a mark by its NULs", async () => {
    const bytes = iconv.encode("name,interests\nKim,tea\n", "utf-16be");
    expect(await decode(bytes)).toEqual({ text: "name,interests\nKim,tea\n", encoding: "utf-16be", certain: true });
  });

  it("does not take Western text that pairs up as CP949 for Korean", async () => {
    // "Ä" or "Å" and a letter make a valid CP949 pair: a rare syllable of the extension
    const text = "name,interests\nÄpfel Åkesson,Äsop\n";
    const bytes = iconv.encode(text, "windows-1252");
    expect(iconv.decode(bytes, "cp949")).not.toContain("\uFFFD");
    expect(await decode(bytes)).toEqual({ text, encoding: "windows-1252", certain: false });
  });

  it("takes Korean for Korean, the CP949 extension included, across slice boundaries", async () => {
    const text = `이름,관심사\n${"똠방각하 김민준,커피\n".repeat(20_000)}`;
    const bytes = iconv.encode(text, "cp949");
    expect(bytes.length).toBeGreaterThan(256 * 1024);
    const decoded = await decode(bytes);
    expect(decoded).toMatchObject({ encoding: "euc-kr", certain: true });
    expect(decoded.text === text).toBe(true);
  });

  it("reads the byte Korean Windows shows as the won sign as ₩ before an amount, and as a backslash elsewhere", async () => {
    // Korean Excel saves a ₩50,000 cell to a CP949 CSV as \50,000: 0x5C is the won sign on its screen
    const bytes = iconv.encode('이름,관심사,예산\n김민준,AC\\DC,"\\50,000"\n이서연,커피,\\ 30000\n', "cp949");
    expect(bytes.filter((b) => b === 0x5c)).toHaveLength(3);
    expect((await decode(bytes)).text).toBe('이름,관심사,예산\n김민준,AC\\DC,"₩50,000"\n이서연,커피,₩ 30000\n');
    // a backslash that ends one slice of the file (64 KB), and the amount that starts the next
    const head = iconv.encode(`이름,예산\n${"가".repeat(1_000)}`, "cp949");
    const across = Buffer.concat([head, Buffer.from(`${"x".repeat(64 * 1024 - head.length - 2)},\\70000\n`)]);
    expect(across.indexOf(0x5c)).toBe(64 * 1024 - 1);
    expect((await decode(across)).text.slice(-8)).toBe(",₩70000\n");
    // in a Western file it stays a backslash
    expect((await decode(iconv.encode("name,budget\nAnn,\\50\n", "windows-1252"))).text).toBe(
      "name,budget\nAnn,\\50\n",
    );
  });

  it("decodes as chosen, without the mark of that encoding, and certain", async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from("a,b")]);
    expect(await decode(bytes, "utf-8")).toEqual({ text: "a,b", encoding: "utf-8", certain: true });
    expect(await decode(iconv.encode("é", "windows-1252"), "windows-1252")).toMatchObject({ text: "é", certain: true });
  });

  it("knows every Hangul syllable, the ones EUC-KR lacks included", async () => {
    const all = Array.from({ length: 0xd7a4 - 0xac00 }, (_, i) => String.fromCharCode(0xac00 + i)).join("");
    expect(await decode(iconv.encode(all, "cp949"), "euc-kr")).toEqual({
      text: all,
      encoding: "euc-kr",
      certain: true,
    });
  });

  it("takes no pair CP949 lacks for Korean, and marks it when CP949 is chosen, the ASCII after it kept", async () => {
    const bytes = Uint8Array.from([...iconv.encode("이름,관심사\n김민준,", "cp949"), 0xc9, 0x2c]);
    expect(await decode(bytes)).toMatchObject({ encoding: "windows-1252", certain: false });
    expect((await decode(Uint8Array.from([0x41, 0xff, 0x2c, 0xb0]), "euc-kr")).text).toBe("A\uFFFD,\uFFFD");
  });
});
