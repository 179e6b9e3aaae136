/**
 * /metrics on a listener of its own (METRICS_HOST:METRICS_PORT, loopback by default), apart from
 * the public port: a scraper on the host or its network reaches it, a caller of /mcp does not, and
 * no token has to be handed to Prometheus.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Metrics } from "./metrics.js";

export type MetricsServer = { url: string; close(): Promise<void> };

/** Listens on `host:port` (0: any free port); rejects when it cannot (a port taken). */
export async function serveMetrics(metrics: Metrics, host: string, port: number): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== "GET" || (req.url ?? "/").split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found: metrics are at /metrics.\n");
      return;
    }
    metrics.scrape().then(
      (text) => res.writeHead(200, { "content-type": metrics.registry.contentType }).end(text),
      (error: unknown) => res.writeHead(500, { "content-type": "text/plain" }).end(`${String(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
