/**
 * The process's one AsyncLocalStorage, a slot per kind (the request's scope, the trace context, the
 * 2026-07-28 edge's held reports): on Node 20 each AsyncLocalStorage in use costs on every promise.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** An object of one shape (the trace context is read many times a request). */
type Carried = { readonly request: unknown; readonly trace: unknown; readonly held: unknown };
const storage = new AsyncLocalStorage<Carried>();

export type ContextSlot<T> = {
  get(): T | undefined;
  /** Runs `fn` with the slot set to `value`, the others as they were. */
  run<R>(value: T, fn: () => R): R;
};

export function contextSlot<T>(name: keyof Carried): ContextSlot<T> {
  return {
    get: () => storage.getStore()?.[name] as T | undefined,
    run: (value, fn) => {
      const now = storage.getStore();
      return storage.run({ request: now?.request, trace: now?.trace, held: now?.held, [name]: value }, fn);
    },
  };
}
