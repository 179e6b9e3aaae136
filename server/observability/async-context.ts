/**
 * The process's one AsyncLocalStorage: what the code running for a request carries without
 * passing it on, each kind in a slot of its own. The request's scope (request-context.ts), with
 * traces on the active OpenTelemetry context (tracing-sdk.ts), and the 2026-07-28 edge's reports
 * held until a request is answered (modern-http.ts) share it, because on Node 20
 * every AsyncLocalStorage in use costs something on every promise the process makes: a second
 * one for traces made every request pay again for each of its hundred-odd promises.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** The slots, in an object of one shape (the trace context is read many times a request). */
type Carried = { readonly request: unknown; readonly trace: unknown; readonly held: unknown };
const storage = new AsyncLocalStorage<Carried>();

export type ContextSlot<T> = {
  /** The slot's value where the caller runs; undefined outside any `run` of it. */
  get(): T | undefined;
  /** Runs `fn` with the slot set to `value`, the other slot as it was. */
  run<R>(value: T, fn: () => R): R;
};

/** The slot `name` of the async context, for one kind of value. */
export function contextSlot<T>(name: keyof Carried): ContextSlot<T> {
  return {
    get: () => storage.getStore()?.[name] as T | undefined,
    run: (value, fn) => {
      const now = storage.getStore();
      return storage.run({ request: now?.request, trace: now?.trace, held: now?.held, [name]: value }, fn);
    },
  };
}
