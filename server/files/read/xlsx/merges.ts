/**
 * Merged cells as a person sees them: a merged range shows its first cell's text across every cell
 * it covers, so a header merged over two columns, or a department merged down a block of rows, is
 * read in each of them. The sheet keeps the text in the range's first cell only, and lists its
 * merged ranges after its rows: so a sheet's merges are known from a first look, before its rows
 * are read for the table.
 */
import type { GridRow } from "../grid-row.js";
import type { Merge } from "./sheet-xml.js";

/** Columns past this are not filled (a staff list has tens; a range over the whole width would fill 16,384). */
const FILL_COLUMNS = 256;

/** Fills rows, taken in ascending order, with the text of the merged ranges over them. */
export class MergeFill {
  private readonly pending: Merge[];
  private active: { merge: Merge; text: string }[] = [];

  constructor(merges: readonly Merge[]) {
    this.pending = [...merges].sort((a, b) => b.top - a.top); // popped from the end, topmost first
  }

  fill(r: GridRow): void {
    if (this.pending.length === 0 && this.active.length === 0) return;
    this.active = this.active.filter((a) => a.merge.bottom >= r.row);
    while (this.pending.length > 0 && this.pending[this.pending.length - 1].top <= r.row) {
      const merge = this.pending.pop()!;
      // a range whose first row was never written (blank) fills with nothing
      const text = merge.top === r.row && "cells" in r ? (r.cells[merge.left - 1] ?? "") : "";
      if (text !== "" && merge.bottom >= r.row) this.active.push({ merge, text });
    }
    if (!("cells" in r)) return;
    for (const { merge, text } of this.active) {
      const right = Math.min(merge.right, FILL_COLUMNS);
      while (r.cells.length < right) r.cells.push("");
      for (let c = merge.left; c <= right; c++) r.cells[c - 1] = text;
    }
  }
}
