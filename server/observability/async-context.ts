/**
 * The process's one AsyncLocalStorage: what the code running for a request carries without
 * passing it on, each kind in a slot of its own. The request's scope (request-context.ts) and,
 * with traces on, the active OpenTelemetry context (tracing-sdk.ts) share it, because on Node 20
 * every AsyncLocalStorage in use costs something on every promise the process makes: a second
 * one for traces made every request pay again for each of its hundred-odd promises.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const storage = new AsyncLocalStorage<Readonly<Record<symbol, unknown>>>();

export type ContextSlot<T> = {
  /** The slot's value where the caller runs; undefined outside any `run` of it. */
  get(): T | undefined;
  /** Runs `fn` with the slot set to `value`, every other slot as it was. */
  run<R>(value: T, fn: () => R): R;
};

/** A slot of the async context, for one kind of value (`name` is for debugging). */
export function contextSlot<T>(name: string): ContextSlot<T> {
  const key = Symbol(name);
  return {
    get: () => storage.getStore()?.[key] as T | undefined,
    run: (value, fn) => storage.run({ ...storage.getStore(), [key]: value }, fn),
  };
}
