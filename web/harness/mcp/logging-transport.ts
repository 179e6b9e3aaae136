/**
 * A Transport decorator that reports every JSON-RPC message crossing it, both ways, before the
 * client sees it or the wire gets it. Wrapped around the Streamable HTTP transport it also sees
 * what arrives on the session's standalone GET stream (job, log and resource notifications).
 */
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";

export type TransportTap = {
  message(direction: "out" | "in", message: JSONRPCMessage): void;
  error?(error: Error): void;
};

/** Wraps `inner`; the SDK `Client` connects to this as to any transport. */
export class LoggingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(
    private readonly inner: Transport,
    private readonly tap: TransportTap,
  ) {
    // The inner callbacks are set once and call through, so the client may (re)assign ours at any time.
    inner.onmessage = (message, extra) => {
      this.tap.message("in", message);
      this.onmessage?.(message, extra);
    };
    inner.onerror = (error) => {
      this.tap.error?.(error);
      this.onerror?.(error);
    };
    inner.onclose = () => this.onclose?.();
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.tap.message("out", message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}
