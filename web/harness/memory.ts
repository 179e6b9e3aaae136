/**
 * What the harness remembers across a page reload, kept in localStorage by zustand's `persist`:
 * the host and its globals, the protocol, the fault switches, the bulk form (a chosen CSV's text up
 * to 2 MB; past that, and for an attached file, only its name), the recent jobs, and the call on
 * screen with its widgetState, shown again once connected. Never the log, the connection,
 * busy/problem or the widget's HTML. Each part is parsed when read back, and one that does not
 * parse is forgotten alone; a write happens only when a remembered part changed.
 */
import * as z from "zod/mini";
import type { PersistStorage } from "zustand/middleware";
import { DISPLAY_MODES } from "../host-globals.js";
import { HOST_KINDS } from "./bridge/globals.js";
import { PROTOCOLS } from "./mcp/connection.js";
import { keepableInput, RecentJobSchema } from "./recent-jobs.js";
import { parseJson } from "../json-values.js";

/** Bumped when what is stored changes shape; memories of another version are dropped. */
export const MEMORY_VERSION = 1;
export const MEMORY_KEY = "giftgenius-harness";
/** Characters of CSV text kept across a reload; a longer file is remembered by its name. */
export const MAX_KEPT_CSV_CHARS = 2 * 1024 * 1024;

const JsonObjectSchema = z.record(z.string(), z.unknown());

const ChosenFileSchema = z.object({
  name: z.string(),
  bytes: z.number(),
  rows: z.nullable(z.number()),
  /** csv: read as text and sent as `csv`; file: attached, sent as ChatGPT's file parameter. */
  as: z.enum(["csv", "file"]),
  /** A CSV's text; null when it was too large to keep across a reload (it must be chosen again). */
  text: z.nullable(z.string()),
});
/** A file chosen in the bulk form. An attached file's `File` lives only in the page: after a reload it is attached again. */
export type ChosenFile = z.infer<typeof ChosenFileSchema> & { file?: File };

const BulkFormSchema = z.object({
  occasion: z.string(),
  budget: z.string(),
  /** The budget's currency (ISO 4217); absent or "": the host's locale decides, as on a real host. */
  currency: z.optional(z.string()),
  /** Pause between slices of work asked of the server, in ms (0: full speed). */
  paceMs: z.number(),
  /** CSV text typed or loaded into the text area. */
  typed: z.string(),
  file: z.nullable(ChosenFileSchema),
});
export type BulkForm = Omit<z.infer<typeof BulkFormSchema>, "file"> & { file: ChosenFile | null };

/** A tool call shown in the widget pane, without what the page makes of it (its iframe key, the widget HTML). */
const ShownCallSchema = z.object({
  toolName: z.string(),
  toolInput: JsonObjectSchema,
  toolOutput: z.nullable(JsonObjectSchema),
  toolResponseMetadata: z.nullable(JsonObjectSchema),
  toolContent: z.array(z.unknown()),
  isError: z.boolean(),
  widgetUri: z.string(),
  at: z.number(),
  /** The pace it was called at (0: full speed); the widget's own start calls are sent at it too. */
  paceMs: z.number(),
});
export type ShownCall = z.infer<typeof ShownCallSchema>;

const FaultsSchema = z.object({
  duplicates: z.number(),
  shuffle: z.boolean(),
  delayMs: z.number(),
  dropNext: z.boolean(),
  dropNextChunk: z.boolean(),
  oneCallAtATime: z._default(z.boolean(), false),
  dropIsError: z._default(z.boolean(), false),
  emptyObjects: z._default(z.boolean(), false),
});

/** A part read back: what parses, or nothing (the default stays). */
const part = <T extends z.ZodMiniType>(schema: T) => z.catch(z.optional(schema), undefined);

/** The memory as stored; `resume` is the call on screen, to show again once connected. */
const MemorySchema = z.object({
  hostKind: part(z.enum(HOST_KINDS)),
  protocol: part(z.enum(PROTOCOLS)),
  theme: part(z.enum(["light", "dark"])),
  displayMode: part(z.enum(DISPLAY_MODES)),
  locale: part(z.string()),
  faults: part(FaultsSchema),
  form: part(BulkFormSchema),
  recentJobs: part(z.array(RecentJobSchema)),
  resume: part(z.nullable(ShownCallSchema)),
  widgetState: z.optional(z.unknown()),
});

/** The harness state that survives a reload. */
export type Remembered = Required<Omit<z.infer<typeof MemorySchema>, "form">> & { form: BulkForm };

/** Where memories are written: localStorage in the page, a map in tests. */
export type MemoryBacking = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** A backing that forgets with the page: the default, so that tests never touch a real one. */
export function pageMemory(): MemoryBacking {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

const kept = (text: string) => (text.length > MAX_KEPT_CSV_CHARS ? null : text);

/** The stored form of `state`; `lean` drops every text and input, for when the full one does not fit. */
function toStored(state: Partial<Remembered>, lean: boolean): Partial<z.infer<typeof MemorySchema>> {
  const { form, resume, recentJobs, widgetState, ...settings } = state;
  // parsing strips what the page adds (a mount's key and HTML, an attached File)
  const call =
    resume && ShownCallSchema.parse({ ...resume, toolInput: (!lean && keepableInput(resume.toolInput)) || {} });
  const file = (chosen: ChosenFile) => {
    const stored = ChosenFileSchema.parse(chosen);
    return { ...stored, text: lean || stored.text === null ? null : kept(stored.text) };
  };
  return {
    ...settings,
    ...(form && { form: { ...form, typed: lean ? "" : (kept(form.typed) ?? ""), file: form.file && file(form.file) } }),
    ...(recentJobs && { recentJobs: lean ? recentJobs.map((j) => ({ ...j, input: null })) : recentJobs }),
    ...(resume !== undefined && { resume: call }),
    ...(widgetState !== undefined && { widgetState: lean ? null : widgetState }),
  };
}

/** The parts of `stored` that parse; the rest is left out, so the defaults stay. */
function fromStored(stored: unknown): Partial<Remembered> {
  const parsed = MemorySchema.safeParse(stored);
  if (!parsed.success) return {};
  const out: Partial<Remembered> = {};
  for (const key of Object.keys(parsed.data) as (keyof Remembered)[]) {
    if (parsed.data[key] !== undefined) Object.assign(out, { [key]: parsed.data[key] });
  }
  return out;
}

/**
 * zustand's persist storage over `backing`: reads memories back parsed, and writes only when a
 * part changed (by reference: the log changes many times a second, the form's megabytes do not),
 * leaner when the full memory does not fit, and never throws into the store.
 */
export function createMemoryStorage(backing: MemoryBacking): PersistStorage<Partial<Remembered>> {
  let last: Partial<Remembered> = {};
  const unchanged = (next: Partial<Remembered>) =>
    Object.keys(next).every((k) => next[k as keyof Remembered] === last[k as keyof Remembered]);
  return {
    getItem(name) {
      const text = backing.getItem(name);
      if (text === null) return null;
      const stored = z.object({ version: z.number(), state: z.unknown() }).safeParse(parseJson(text));
      if (!stored.success) return null;
      last = fromStored(stored.data.state);
      return { version: stored.data.version, state: last };
    },
    setItem(name, { state, version }) {
      if (unchanged(state)) return;
      last = state;
      const stored = (lean: boolean) => JSON.stringify({ version, state: toStored(state, lean) });
      try {
        backing.setItem(name, stored(false));
      } catch {
        // over the quota: keep the settings and the jobs, without the texts
        const lean = stored(true);
        try {
          backing.setItem(name, lean);
        } catch {
          // storage refused altogether (private mode, disabled): the harness works on without memory
        }
      }
    },
    removeItem: (name) => backing.removeItem(name),
  };
}
