/**
 * One XML part of a workbook, parsed as it unpacks: a streaming, fatal UTF-8 decoder (an invalid
 * byte is a refusal, never U+FFFD) into saxes. A DOCTYPE is refused, so no entity can be declared.
 */
import { SaxesParser, type SaxesTagPlain } from "saxes";
import { Refused } from "../grid-row.js";
import type { Pace } from "../pace.js";
import { notWorkbook, type WorkbookZip } from "./unzip.js";
import { cut, tooLarge } from "./read-limits.js";

/** What a part's reader does with its elements; names come without their namespace prefix. */
export type XmlHandlers = {
  open(name: string, attributes: Record<string, string>): void;
  close?(name: string): void;
  text?(text: string): void;
  /** Sees every piece's text; once it is `taking`, pieces go to it alone, no longer parsed. */
  scan?: { taking: boolean; take(text: string): void; end(): void };
};

type Clock = { now: () => number; deadline: number; deadlineMs: number };

/** One reading of a workbook: its zip, the deadline it keeps, and its pace. */
export type BookReading = { zip: WorkbookZip; clock: Clock; pace: Pace };

const local = (name: string) => name.slice(name.indexOf(":") + 1);

const PIECE_BYTES = 64 * 1024;

const pastDeadline = (clock: Clock) =>
  tooLarge(`Reading the workbook took longer than ${Math.round(clock.deadlineMs / 1000)} s, so it was stopped.`);

const broken = (part: string, what: string) => new Refused(notWorkbook(`The workbook's part ${cut(part)} ${what}.`));

/** Parses `part` into `handlers`, yielding them after each piece. Throws `Refused` on anything wrong. */
export async function* parseXmlPart<H extends XmlHandlers>(
  { zip, clock }: BookReading,
  part: string,
  handlers: H,
): AsyncGenerator<H> {
  const parser = new SaxesParser<{ xmlns: false; position: false }>({ xmlns: false, position: false });
  parser.on("doctype", () => {
    throw broken(part, "declares a DOCTYPE, which no spreadsheet writes (it could define entities)");
  });
  parser.on("error", (error) => {
    throw broken(part, `is not well-formed XML (${cut(error.message, 120)})`);
  });
  parser.on("opentag", (tag: SaxesTagPlain) => handlers.open(local(tag.name), tag.attributes));
  parser.on("closetag", (tag: SaxesTagPlain) => handlers.close?.(local(tag.name)));
  parser.on("text", (text) => handlers.text?.(text));
  parser.on("cdata", (text) => handlers.text?.(text));
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const decode = (bytes?: Buffer) => {
    try {
      return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true });
    } catch {
      throw broken(part, "is not valid UTF-8 text");
    }
  };
  for await (const unpacked of zip.stream(part)) {
    // a stored (uncompressed) part comes in one piece: parsed a slice at a time, between turns
    for (let at = 0; at < unpacked.length; at += PIECE_BYTES) {
      if (clock.now() > clock.deadline) throw pastDeadline(clock);
      const text = decode(unpacked.subarray(at, at + PIECE_BYTES));
      const scan = handlers.scan;
      if (scan?.taking !== true) parser.write(text);
      scan?.take(text);
      yield handlers;
    }
  }
  const rest = decode();
  if (handlers.scan?.taking === true) {
    handlers.scan.take(rest);
    handlers.scan.end();
  } else parser.write(rest).close();
}

/** Parses a whole part (workbook, relations, styles). */
export async function parseXmlWhole(book: BookReading, part: string, handlers: XmlHandlers): Promise<void> {
  const pieces = parseXmlPart(book, part, handlers);
  while (!(await pieces.next()).done) await book.pace();
}
