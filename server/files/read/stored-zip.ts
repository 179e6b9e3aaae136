/**
 * A zip of checked parts, stored without compression, handed out in small pieces: what the
 * streaming .xlsx reader reads instead of the file a person sent. Its sizes are the parts' real
 * sizes and its order is the one the reader wants (workbook and shared strings before the sheets),
 * so nothing in it can lie and no sheet has to wait in a temporary file.
 */
import { Readable } from "node:stream";
import { crc32 } from "node:zlib";
import type { ZipPart } from "./unzip.js";

/** Bytes per piece: the reader parses each piece on its own turn of the event loop. */
const PIECE_BYTES = 64 * 1024;
/** UTF-8 names (general purpose flag bit 11). */
const UTF8_NAMES = 0x0800;
/** 1980-01-01, the earliest date a zip can say. */
const DOS_DATE = 0x21;

/** The parts as a stored zip, streamed piece by piece with a turn of the event loop between pieces. */
export function storedZipStream(parts: ZipPart[]): Readable {
  return Readable.from(pieces(parts), { objectMode: false });
}

async function* pieces(parts: ZipPart[]): AsyncGenerator<Buffer> {
  const central: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of parts) {
    const fileName = Buffer.from(name, "utf8");
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeCommon(local, 4, crc, data.length, fileName.length);
    yield Buffer.concat([local, fileName]);
    for (let at = 0; at < data.length;) {
      const end = characterBoundary(data, Math.min(data.length, at + PIECE_BYTES), at);
      yield data.subarray(at, end);
      at = end;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4); // made by
    writeCommon(entry, 6, crc, data.length, fileName.length);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  yield Buffer.concat([directory, end]);
}

/**
 * Where a piece may end at or before `end`: never inside a UTF-8 character. exceljs's XML reader
 * decodes each piece on its own, so a Hangul syllable cut between two pieces would read as two
 * replacement characters. A piece too short to back off keeps its length (not text, or not UTF-8).
 */
function characterBoundary(data: Buffer, end: number, start: number): number {
  let at = end;
  // continuation bytes are 10xxxxxx; a character is at most 4 bytes long
  while (at < data.length && at > end - 4 && at > start + 1 && (data[at] & 0xc0) === 0x80) at--;
  return (data[at] & 0xc0) === 0x80 && at < data.length ? end : at;
}

/** The fields local and central headers share, from "version needed" to the extra field's length. */
function writeCommon(b: Buffer, at: number, crc: number, size: number, nameLength: number): void {
  b.writeUInt16LE(20, at); // version needed
  b.writeUInt16LE(UTF8_NAMES, at + 2);
  b.writeUInt16LE(0, at + 4); // stored
  b.writeUInt16LE(0, at + 6); // time
  b.writeUInt16LE(DOS_DATE, at + 8);
  b.writeUInt32LE(crc, at + 10);
  b.writeUInt32LE(size, at + 14);
  b.writeUInt32LE(size, at + 18);
  b.writeUInt16LE(nameLength, at + 22);
  b.writeUInt16LE(0, at + 24); // extra field
}
