/**
 * The service's calls in flight, so that closing lets them finish before it closes the store; once
 * shut, a call answers at once that the service has shut down. A store that cannot be reached makes
 * a call answer `store_unavailable`.
 */
import { fail, storeUnavailable, type Outcome } from "../outcomes.js";
import { StoreUnavailableError } from "../store-errors.js";

export class Calls {
  readonly #inflight = new Set<Promise<unknown>>();
  #shut = false;

  /** `call`, counted while in flight, answering for a store that cannot be reached. */
  track<A extends unknown[], T>(call: (...args: A) => Promise<Outcome<T>>): (...args: A) => Promise<Outcome<T>> {
    return async (...args) => {
      if (this.#shut) return fail("internal", "The job service has shut down.", "Try again once the server is back.");
      const p = call(...args);
      this.#inflight.add(p);
      try {
        return await p;
      } catch (error) {
        if (error instanceof StoreUnavailableError) return storeUnavailable();
        throw error;
      } finally {
        this.#inflight.delete(p);
      }
    };
  }

  /** Resolves once no call is in flight. */
  async settle(): Promise<void> {
    while (this.#inflight.size > 0) await Promise.allSettled([...this.#inflight]);
  }

  /** From now on every call answers that the service has shut down. */
  shut(): void {
    this.#shut = true;
  }
}
