/**
 * JSON-RPC 2.0 over a message port, as the MCP Apps adapter speaks it: requests and their replies
 * (by id), notifications both ways, and the host's own requests handed to the adapter.
 */
import { isRecord } from "../../json-values.js";

type Message = {
  jsonrpc: "2.0";
  id?: number | string;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
};
/** Where messages go and come from: the parent frame, or a test's in-memory pair. */
export type Port = { post(message: Message): void; listen(receive: (message: unknown) => void): () => void };

export type Reply = { result?: unknown; error?: unknown };
type Id = number | string;

/** What the other side asks of this one. */
export type PeerHandlers = {
  onRequest(id: Id, method: string): void;
  onNotification(method: string, params: unknown): void;
};

export class JsonRpcPeer {
  /** The requests sent and not yet answered, by id. */
  private readonly pending = new Map<Id, (reply: Reply) => void>();
  private nextId = 1;
  private readonly stopListening: () => void;

  constructor(
    private readonly port: Port,
    private readonly handlers: PeerHandlers,
  ) {
    this.stopListening = port.listen(this.receive);
  }

  /** Sends a request; resolves with its reply (a result or an error), never rejects. */
  request = (method: string, params: unknown): Promise<Reply> => {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.port.post({ jsonrpc: "2.0", id, method, params });
    });
  };

  notify = (method: string, params: unknown = {}): void => this.port.post({ jsonrpc: "2.0", method, params });

  /** Answers the other side's request `id`. */
  reply = (id: Id, answer: Reply): void => this.port.post({ jsonrpc: "2.0", id, ...answer });

  /** Stops listening; replies still outstanding are never resolved. */
  close = (): void => {
    this.stopListening();
    this.pending.clear();
  };

  private receive = (raw: unknown): void => {
    if (!isRecord(raw) || raw.jsonrpc !== "2.0") return;
    const { id, method } = raw;
    if (typeof method === "string") {
      if (typeof id === "number" || typeof id === "string") this.handlers.onRequest(id, method);
      else this.handlers.onNotification(method, raw.params);
      return;
    }
    if (typeof id === "number" || typeof id === "string") {
      this.pending.get(id)?.({ result: raw.result, error: raw.error });
      this.pending.delete(id);
    }
  };
}
