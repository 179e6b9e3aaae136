/**
 * /livez and /readyz, and the timed ping of the job store behind /readyz and the metrics scrape.
 * Live: the process answers (nothing else is checked, so that a slow store never gets a live
 * process restarted). Ready: the job store answers and the process is not draining; from SIGTERM
 * on (shutdown.ts) /readyz answers 503, so that a balancer stops sending new requests before the
 * process stops taking them. /healthz (app.ts) stays as it was.
 */
import type { Context } from "hono";
import type { JobService } from "../jobs/job-service.js";
import type { Metrics } from "./metrics.js";

type StoreHealth = Awaited<ReturnType<JobService["health"]>>;
type StoreProbe = () => Promise<StoreHealth>;

/**
 * Probes with `health` (the job service's), recording the round trip and the store's state
 * (giftgenius_store_roundtrip_seconds, _store_up) into `metrics` when there are any.
 */
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

export class Readiness {
  private draining = false;

  constructor(private readonly probe: StoreProbe) {}

  /** From now on /readyz answers 503 "draining". */
  drain = (): void => {
    this.draining = true;
  };

  livez = (c: Context) => c.json({ status: "ok" });

  readyz = async (c: Context) => {
    if (this.draining) return c.json({ status: "draining" }, 503);
    const health = await this.probe();
    // a full store still serves reads and the deletes that free room: ready, as /healthz says "degraded"
    const up = health.store !== "unreachable";
    return c.json(
      {
        status: up ? "ready" : "unavailable",
        store: health.store,
        ...("reason" in health ? { reason: health.reason } : {}),
      },
      up ? 200 : 503,
    );
  };
}
