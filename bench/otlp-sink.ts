/**
 * A stand-in OTLP collector for the bench: a loopback HTTP server that reads every request and
 * answers 200, so that a target's trace exporter does its whole work (serialising, sending) and
 * nothing is stored.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type OtlpSink = { url: string; close(): Promise<void> };

export async function startOtlpSink(): Promise<OtlpSink> {
  const server = createServer((request, response) => {
    request.resume();
    request.once("end", () => response.writeHead(200, { "content-type": "application/json" }).end("{}"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
