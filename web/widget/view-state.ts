/**
 * The card's view state (display mode; the table's search, department and sort), kept under the
 * result's `_meta.viewUUID` (ext-apps "Persisting view state"): a card rendered again comes back as left.
 */
import { useEffect, useState } from "react";
import * as z from "zod/mini";
import { VIEW_ID_META_KEY } from "../../shared/tools.js";
import { DISPLAY_MODES } from "../host-globals.js";
import { isRecord, parseJson } from "../json-values.js";
import { useHost, useHostGlobal } from "./host-context.js";
import { TableQuerySchema } from "./result-table.js";

// What the card keeps on this device: `localStorage`, or, where it throws (a sandboxed frame, a full
// quota), memory for the page's life. The person's choices live here, never a result.
const memory = new Map<string, string>();

/** Kept by this page first, then by an earlier one. */
export function readKept(key: string): string | null {
  const kept = memory.get(key);
  if (kept !== undefined) return kept;
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function keep(key: string, value: string): void {
  memory.set(key, value);
  try {
    localStorage.setItem(key, value);
  } catch {
    // kept in memory only
  }
}

const ViewStateSchema = z.object({
  displayMode: z.optional(z.enum(DISPLAY_MODES)),
  table: z.optional(TableQuerySchema),
});
type ViewState = z.infer<typeof ViewStateSchema>;

/** Where the view of the tool result with `_meta` is kept; null when it has no view id. */
function keyOf(meta: unknown): string | null {
  const id = isRecord(meta) ? meta[VIEW_ID_META_KEY] : undefined;
  return typeof id === "string" && id !== "" ? `gg-view:${id}` : null;
}

function readView(key: string): ViewState {
  const parsed = ViewStateSchema.safeParse(parseJson(readKept(key) ?? ""));
  return parsed.success ? parsed.data : {};
}

const writeView = (key: string, change: ViewState) => keep(key, JSON.stringify({ ...readView(key), ...change }));

/** `useState` for one part of the view: starts from what was kept for this tool result, keeps every change. */
export function useViewState<K extends keyof ViewState>(part: K, initial: NonNullable<ViewState[K]>) {
  const key = keyOf(useHostGlobal("toolResponseMetadata"));
  const [value, setValue] = useState(() => (key === null ? undefined : readView(key)[part]) ?? initial);
  const [first] = useState(value);
  useEffect(() => {
    if (key !== null && value !== first) writeView(key, { [part]: value });
  }, [key, part, value, first]);
  return [value, setValue] as const;
}

/** Asks the host again for the display mode this card was left in, and keeps each mode after that. */
export function useDisplayModeKept(): void {
  const host = useHost();
  const key = keyOf(useHostGlobal("toolResponseMetadata"));
  useEffect(() => {
    if (key === null) return;
    const { displayMode, displayModes } = host.getGlobals();
    const kept = readView(key).displayMode;
    if (kept !== undefined && kept !== displayMode && displayModes.includes(kept))
      void host.requestDisplayMode(kept).catch(() => undefined);
    let last = displayMode;
    return host.subscribe(() => {
      const mode = host.getGlobals().displayMode;
      if (mode !== last) writeView(key, { displayMode: (last = mode) });
    });
  }, [host, key]);
}
