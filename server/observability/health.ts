/**
 * /livez and /readyz. Live: the process answers (nothing else is checked, so that a slow store
 * never gets a live process restarted). Ready: the job store answers and the process is not
 * draining; from SIGTERM on (shutdown.ts) /readyz answers 503, so that a balancer stops sending
 * new requests before the process stops taking them. /healthz (app.ts) stays as it was.
 */
import type { Context } from "hono";
import type { StoreProbe } from "./store-probe.js";

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
