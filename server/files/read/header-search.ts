/**
 * Finds a staff list's header among its first rows: a title and a note or two may sit above it.
 * Rows are held until enough are seen to decide; the header is the first candidate that names
 * every column, else the first that names the most.
 */
import { isBlank, type GridRow } from "./grid-row.js";
import { matchHeaders } from "./headers.js";

/** Non-empty rows looked at for the header. */
const HEADER_CANDIDATES = 10;
/** Rows held at most before deciding, blank ones included. */
const HELD_ROWS = 1_000;

type CellRow = { row: number; cells: string[] };

/** The header found and the rows held after it, to be read in order. */
export type HeaderFound = { header: CellRow; after: GridRow[] };

export class HeaderSearch {
  private held: GridRow[] = [];
  private nonBlank = 0;

  /** Holds `row`; true once enough rows are held to decide. */
  hold(row: GridRow): boolean {
    this.held.push(row);
    if ("cells" in row && !isBlank(row.cells)) this.nonBlank++;
    // title rows above a header are few: past the candidates, or a long run of rows, decide
    return this.nonBlank >= HEADER_CANDIDATES || this.held.length >= HELD_ROWS;
  }

  /** The header among the rows held, which are then let go; undefined (and the rows kept) while none has text. */
  decide(): HeaderFound | undefined {
    const candidates = this.held.filter((r): r is CellRow => "cells" in r && !isBlank(r.cells));
    if (candidates.length === 0) return undefined;
    const scored = candidates.slice(0, HEADER_CANDIDATES).map((r) => matchHeaders(r.cells));
    let pick = scored.findIndex((m) => m.missing.length === 0);
    if (pick === -1) {
      const found = scored.map((m) => Object.values(m.columns).filter((i) => i !== -1).length);
      pick = Math.max(
        0,
        found.findIndex((n) => n > 0 && n === Math.max(...found)),
      );
    }
    const header = candidates[pick];
    const after = this.held.filter((r) => r.row > header.row);
    this.held = [];
    return { header, after };
  }
}
