/**
 * CP949 (Unified Hangul Code), what Korean Excel saves a CSV in. Node's TextDecoder("euc-kr")
 * knows only KS X 1001, the EUC-KR half: it refuses (or, not fatal, garbles) the 8,822 syllables
 * CP949 adds, such as 똠 or 햏. UHC places those syllables by a rule, in Unicode order over lead
 * bytes 81–C6, so the whole table is built here from Node's own decoder plus that rule, with no
 * conversion library in production (tests check it against iconv-lite).
 */

const FIRST_LEAD = 0x81;
const FIRST_TRAIL = 0x41;
const TRAILS = 0xff - FIRST_TRAIL; // 41–FE
/** Code points by `(lead - 81) * TRAILS + (trail - 41)`; 0 where CP949 has none. */
let table: Uint16Array | undefined;

function buildTable(): Uint16Array {
  const t = new Uint16Array((0xff - FIRST_LEAD) * TRAILS);
  // KS X 1001: every pair of bytes A1–FE, decoded in one call, a line each
  const pairs: number[] = [];
  for (let lead = 0xa1; lead <= 0xfe; lead++)
    for (let trail = 0xa1; trail <= 0xfe; trail++) pairs.push(lead, trail, 0x0a);
  const lines = new TextDecoder("euc-kr").decode(Uint8Array.from(pairs)).split("\n");
  const known = new Set<number>();
  let k = 0;
  for (let lead = 0xa1; lead <= 0xfe; lead++) {
    for (let trail = 0xa1; trail <= 0xfe; trail++, k++) {
      const line = lines[k];
      const cp = line.length === 1 ? line.charCodeAt(0) : 0xfffd;
      // user-defined rows (C9, FE) come out as private-use characters: CP949 defines none there
      if (cp === 0xfffd || (cp >= 0xe000 && cp <= 0xf8ff)) continue;
      t[(lead - FIRST_LEAD) * TRAILS + trail - FIRST_TRAIL] = cp;
      known.add(cp);
    }
  }
  // added to KS X 1001 in 1998, after ICU's EUC-KR table
  t[(0xa2 - FIRST_LEAD) * TRAILS + 0xe6 - FIRST_TRAIL] = 0x20ac; // €
  t[(0xa2 - FIRST_LEAD) * TRAILS + 0xe7 - FIRST_TRAIL] = 0x00ae; // ®
  // the syllables KS X 1001 lacks, in order, over leads 81–C6 and their trails
  let lead = FIRST_LEAD;
  let trail = FIRST_TRAIL;
  for (let cp = 0xac00; cp <= 0xd7a3; cp++) {
    if (known.has(cp)) continue;
    t[(lead - FIRST_LEAD) * TRAILS + trail - FIRST_TRAIL] = cp;
    trail = nextTrail(lead, trail);
    if (trail === 0) {
      lead++;
      trail = FIRST_TRAIL;
    }
  }
  return t;
}

/** The trail after `trail` in UHC's extension (A–Z, a–z, then 81–FE below lead A1, 81–A0 from it); 0 past the last. */
function nextTrail(lead: number, trail: number): number {
  if (trail === 0x5a) return 0x61;
  if (trail === 0x7a) return 0x81;
  if (trail === (lead < 0xa1 ? 0xfe : 0xa0)) return 0;
  return trail + 1;
}

/**
 * A stateful CP949 decoder: `decode(bytes, { stream: true })` keeps a lead byte cut off at the end
 * for the next call. With `fatal`, a byte pair CP949 does not define throws, as TextDecoder does.
 */
export function createCp949Decoder(fatal: boolean) {
  const t = (table ??= buildTable());
  let carried = -1;
  const bad = () => {
    if (fatal) throw new TypeError("The encoded data was not valid for encoding cp949");
    return 0xfffd;
  };
  return {
    decode(bytes: Uint8Array = new Uint8Array(), { stream = false }: { stream?: boolean } = {}): string {
      const codes = new Uint16Array(bytes.length + 1);
      let n = 0;
      let i = 0;
      if (carried !== -1 && bytes.length > 0) {
        const cp = lookup(carried, bytes[0]);
        codes[n++] = cp || bad();
        // a pair CP949 lacks takes its lead alone when the next byte is ASCII, which is read again
        if (cp || bytes[0] >= 0x80) i = 1;
        carried = -1;
      }
      for (; i < bytes.length; i++) {
        const b = bytes[i];
        if (b < 0x80) codes[n++] = b;
        else if (i + 1 < bytes.length) {
          const cp = lookup(b, bytes[i + 1]);
          codes[n++] = cp || bad();
          if (cp || bytes[i + 1] >= 0x80) i++;
        } else if (stream && b >= FIRST_LEAD && b < 0xff) carried = b;
        else codes[n++] = bad();
      }
      if (!stream && carried !== -1) {
        carried = -1;
        codes[n++] = bad();
      }
      let text = "";
      for (let at = 0; at < n; at += 8192) text += String.fromCharCode(...codes.subarray(at, Math.min(n, at + 8192)));
      return text;
    },
  };

  /** The code point of a pair, or 0 where CP949 has none. */
  function lookup(lead: number, trail: number): number {
    if (lead < FIRST_LEAD || lead === 0xff || trail < FIRST_TRAIL || trail === 0xff) return 0;
    return t[(lead - FIRST_LEAD) * TRAILS + trail - FIRST_TRAIL];
  }
}
