/**
 * Hands a zustand store from <App> to the components: a React context, a hook that selects from
 * the store, and one that returns the store itself (for loops and actions).
 */
import { createContext, useContext } from "react";
import { useStore } from "zustand";
import type { StoreApi } from "zustand/vanilla";

export function createStoreContext<S>(name: string) {
  const Context = createContext<StoreApi<S> | null>(null);
  /** The store itself; throws outside the provider, where a missing store is a wiring bug. */
  function useApi(): StoreApi<S> {
    const store = useContext(Context);
    if (store === null) throw new Error(`${name} needs a <${name}Context.Provider>`);
    return store;
  }
  /** Selects from the store; re-renders when the selected value changes. */
  function useSelect<U>(selector: (s: S) => U): U {
    return useStore(useApi(), selector);
  }
  return { Context, useApi, useSelect };
}
