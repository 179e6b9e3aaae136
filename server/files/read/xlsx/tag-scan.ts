/**
 * The rest of a sheet looked at without parsing it: once its first rows are read (for its header),
 * choosing a sheet needs only how many rows it holds and its merged ranges, so the rest of its XML
 * is searched for the `<row` and `<mergeCell` tags rather than parsed (three times faster). A tag
 * always opens with "<", which text and attribute values cannot hold, so a tag is never mistaken.
 */

const ROW = /<(?:[A-Za-z_][\w.-]*:)?row[\s>/]/g;
const MERGE = /<(?:[A-Za-z_][\w.-]*:)?mergeCell\s[^>]*?\bref="([^"]*)"/g;
/** A tag longer than this is cut off when looking for the next (only a huge attribute could be). */
const LONGEST_CARRY = 64 * 1024;

export class TagScan {
  /** Rows found by the search (the rows parsed before are counted by the parser). */
  rows = 0;
  readonly mergeRefs: string[] = [];
  /** True once the search has taken over from the parser. */
  taking = false;
  /** Text after the last "<" of the previous piece: a tag that may go on in the next one. */
  private carry = "";

  /** Sees a piece: searched when taking over, else only its unfinished last tag kept. */
  take(text: string): void {
    if (!this.taking) {
      const last = text.lastIndexOf("<");
      if (last !== -1) this.carry = text.slice(last);
      else if (this.carry !== "") this.carry += text;
      // a tag closed in the piece was the parser's: not counted again
      if (this.carry.includes(">")) this.carry = "";
      return;
    }
    const all = this.carry + text;
    const last = all.lastIndexOf("<");
    const done = last === -1 ? all : all.slice(0, last);
    this.carry = last === -1 ? "" : all.slice(last);
    if (this.carry.length > LONGEST_CARRY) this.carry = "";
    this.search(done);
  }

  /** The last piece's unfinished tag, searched at the end. */
  end(): void {
    if (this.taking) this.search(this.carry);
    this.carry = "";
  }

  private search(text: string): void {
    ROW.lastIndex = 0;
    while (ROW.exec(text) !== null) this.rows++;
    if (!text.includes("mergeCell")) return;
    MERGE.lastIndex = 0;
    for (let m = MERGE.exec(text); m !== null; m = MERGE.exec(text)) this.mergeRefs.push(m[1]);
  }
}
