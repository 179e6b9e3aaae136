/**
 * A ping of the job store, timed: /readyz asks it whether the store answers, and the metrics scrape
 * asks it for the round trip and the store's state (giftgenius_store_roundtrip_seconds, _store_up).
 */
import type { JobService } from "../jobs/job-service.js";
import type { Metrics } from "./metrics.js";

export type StoreHealth = Awaited<ReturnType<JobService["health"]>>;

export type StoreProbe = () => Promise<StoreHealth>;

/** Probes with `health` (the job service's), recording into `metrics` when there are any. */
export function createStoreProbe(
  health: () => Promise<StoreHealth>,
  metrics?: Metrics,
  now: () => number = performance.now.bind(performance),
): StoreProbe {
  return async () => {
    const started = now();
    const state = await health();
    if (metrics) {
      // a full store still answers (reads and deletes go on): it is up
      metrics.storeUp.set(state.store === "unreachable" ? 0 : 1);
      if (state.store !== "unreachable") metrics.storeRoundTrip.observe((now() - started) / 1000);
    }
    return state;
  };
}
