/**
 * A Transport decorator that reports every JSON-RPC message crossing it, both ways, before the
 * client sees it or the wire gets it. Wrapped around the Streamable HTTP transport it also sees
 * what arrives on the session's standalone GET stream (job, log and resource notifications) and,
 * in 2026-07-28, on a `subscriptions/listen` stream.
 */
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from "@modelcontextprotocol/client";

export type TransportTap = {
  message(direction: "out" | "in", message: JSONRPCMessage): void;
  error?(error: Error): void;
  /** The options an outgoing message is sent with, given the caller's (the harness marks requests here). */
  sendOptions?(message: JSONRPCMessage, options?: TransportSendOptions): TransportSendOptions | undefined;
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

  // One HTTP request per JSON-RPC request: in 2026-07-28 a call is cancelled by closing its stream.
  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.tap.message("out", message);
    return this.inner.send(message, this.tap.sendOptions ? this.tap.sendOptions(message, options) : options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }
}
