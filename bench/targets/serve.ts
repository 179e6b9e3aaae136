/**
 * The tail both of our server's targets share: the app over `jobs` on a free loopback port with the
 * HTTP timeouts `server/main.ts` sets, its `{"port":…}` line, and a SIGTERM (or the parent going
 * away) that closes server, app and jobs.
 * `wrap` puts the app inside what serves it (the observed target's HTTP observer).
 */
import { serve } from "@hono/node-server";
import { createApp, type App, type AppOptions } from "../../server/app.js";
import type { JobService } from "../../server/jobs/job-service.js";
import { setHttpTimeouts } from "../../server/accept-limit.js";
import { endWithParent } from "../children.js";

export function serveTarget(
  jobs: JobService,
  options: Partial<AppOptions> = {},
  wrap: (app: App["app"]) => App["app"] = (app) => app,
): void {
  const built = createApp({ jobs, onError: (error) => console.error(error), ...options });
  const served = wrap(built.app);
  const server = serve({ fetch: served.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
    console.log(JSON.stringify({ port: info.port }));
  });
  setHttpTimeouts(server);
  endWithParent();
  process.on("SIGTERM", () => {
    server.close();
    if ("closeAllConnections" in server) server.closeAllConnections();
    void built
      .close()
      .then(() => jobs.close())
      .finally(() => process.exit(0));
  });
}
