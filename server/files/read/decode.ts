/**
 * The text of a delimited file: a person's choice; else a byte-order mark; else UTF-16 by its NULs; else valid
 * UTF-8; else clean CP949 that reads as Korean (Korean Excel; its 0x5C before an amount read as the won sign it
 * shows there); else Windows-1252, marked uncertain so the preview asks. No detection library: these rules are
 * certain or nearly so, where a statistical detector would still guess on short files.
 */
import { isUtf8 } from "node:buffer";
import iconv from "iconv-lite";
import type { TextEncoding } from "../../../shared/files.js";
import type { Pace } from "./pace.js";

const SLICE_BYTES = 64 * 1024;
const SNIFF_BYTES = 64 * 1024;
/** Bytes looked at to tell Korean (the whole file is then decoded strictly). */
const SNIFF_KOREAN_BYTES = 1024 * 1024;

/** Decodes `bytes` in the encoding chosen, or the one detected. */
export async function decodeText(bytes: Uint8Array, chosen: TextEncoding | undefined, pace: Pace) {
  /** The text in `encoding`; when `fatal`, none unless every byte is valid in it. */
  const read = async (encoding: TextEncoding, fatal: boolean, certain = true) => {
    const text = await decode(bytes, encoding, fatal, pace);
    return text === undefined ? undefined : { text, encoding, certain };
  };
  // a chosen or marked encoding is read loosely: bytes it lacks marked, its own mark dropped
  const given = chosen ?? byteOrderMark(bytes);
  const wide = given === undefined ? utf16ByNuls(bytes.subarray(0, SNIFF_BYTES)) : undefined;
  return (
    (given && (await read(given, false))) ||
    (wide && (await read(wide, true))) ||
    (isUtf8(bytes) && (await read("utf-8", false))) ||
    (looksKorean(bytes) && (await read("euc-kr", true))) ||
    (await read("windows-1252", false, false))!
  );
}

function byteOrderMark(b: Uint8Array): TextEncoding | undefined {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return "utf-8";
  if (b[0] === 0xff && b[1] === 0xfe) return "utf-16le";
  if (b[0] === 0xfe && b[1] === 0xff) return "utf-16be";
  return undefined;
}

/** UTF-16 without a mark: a CSV's ASCII puts a NUL in every other byte (odd for little-endian). */
function utf16ByNuls(b: Uint8Array): TextEncoding | undefined {
  let even = 0;
  let odd = 0;
  for (let i = 0; i + 1 < b.length; i += 2) {
    if (b[i] === 0) even++;
    if (b[i + 1] === 0) odd++;
  }
  const pairs = Math.floor(b.length / 2);
  if (pairs === 0) return undefined;
  // Hangul syllables such as 팀 (U+D300) put a NUL on the other side now and then
  if (odd >= pairs / 10 && even * 3 <= odd) return "utf-16le";
  if (even >= pairs / 10 && odd * 3 <= even) return "utf-16be";
  return undefined;
}

/**
 * Whether most two-byte characters are among KS X 1001's 2,350 common Hangul syllables (lead B0–C8,
 * trail A1–FE); Western 8-bit text that pairs up as CP949 lands elsewhere.
 */
function looksKorean(bytes: Uint8Array): boolean {
  const b = bytes.subarray(0, SNIFF_KOREAN_BYTES);
  let hangul = 0;
  let pairs = 0;
  for (let i = 0; i < b.length; i++) {
    const lead = b[i];
    if (lead < 0x80) continue;
    const trail = b[++i];
    pairs++;
    if (lead >= 0xb0 && lead <= 0xc8 && trail >= 0xa1 && trail <= 0xfe) hangul++;
  }
  return hangul > 0 && hangul * 2 >= pairs;
}

/** Korean Windows shows byte 0x5C as the won sign, so what a CP949 file writes as \50,000 its writer saw as ₩50,000. */
const WON_SIGN = /\\(?=\s*\d)/g;

/** The text, or undefined when `fatal` and the bytes are not valid. */
async function decode(bytes: Uint8Array, encoding: TextEncoding, fatal: boolean, pace: Pace) {
  // iconv-lite for CP949: Node's "euc-kr" knows only KS X 1001, not the 8,822 syllables CP949 adds (똠, 햏).
  // CP949 cannot encode U+FFFD: where iconv-lite writes one, the bytes were no CP949
  const cp949 = encoding === "euc-kr" ? iconv.getDecoder("cp949") : undefined;
  const decoder = new TextDecoder(cp949 ? "utf-8" : encoding, { fatal });
  /** A backslash (and spaces) ending the last piece, held until the next says whether an amount follows. */
  let held = "";
  /** Each piece's text, then (called with none) the rest. */
  const decodePiece = (piece?: Uint8Array): string => {
    if (!cp949) return piece ? decoder.decode(piece, { stream: true }) : decoder.decode();
    const text = piece ? cp949.write(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength)) : cp949.end();
    if (fatal && text?.includes("\uFFFD")) throw new TypeError("The bytes are not valid CP949");
    const whole = held + (text ?? "");
    const tail = piece ? whole.trimEnd() : ""; // what trimEnd takes off is what `\s*` in WON_SIGN looks past
    const cut = tail.endsWith("\\") ? tail.length - 1 : -1;
    held = cut === -1 ? "" : whole.slice(cut);
    return (cut === -1 ? whole : whole.slice(0, cut)).replace(WON_SIGN, "₩");
  };
  const parts: string[] = [];
  try {
    for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
      parts.push(decodePiece(bytes.subarray(at, at + SLICE_BYTES)));
      await pace();
    }
    parts.push(decodePiece());
  } catch {
    return undefined;
  }
  return parts.join("");
}
