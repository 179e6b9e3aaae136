/**
 * Sends the model context when its key changes, at most once every few seconds (only the latest
 * waits); the context is made only when it is sent.
 */
import type { ModelContext } from "./host.js";

export type ContextSenderOptions = {
  /** The least time between two sends. */
  intervalMs?: number;
  now?: () => number;
};

export type ContextSender = {
  /** Offers the context `make` builds; a key already offered is ignored. */
  offer(key: string, make: () => ModelContext): void;
  /** Sends the context still waiting at once; resolves once the host has answered the last send. */
  flush(): Promise<unknown>;
  stop(): void;
};

export function createContextSender(
  send: (context: ModelContext) => Promise<unknown>,
  { intervalMs = 3_000, now = Date.now }: ContextSenderOptions = {},
): ContextSender {
  let lastKey = "";
  let sentAt = -Infinity;
  let waiting: (() => ModelContext) | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last: Promise<unknown> = Promise.resolve();
  const fire = () => {
    clearTimeout(timer);
    timer = undefined;
    if (waiting === null) return;
    const make = waiting;
    waiting = null;
    sentAt = now();
    last = send(make()).catch(() => undefined);
  };
  return {
    offer(key, make) {
      if (key === lastKey) return;
      lastKey = key;
      waiting = make;
      const wait = sentAt + intervalMs - now();
      if (wait <= 0) fire();
      else timer ??= setTimeout(fire, wait);
    },
    flush() {
      fire();
      return last;
    },
    stop() {
      clearTimeout(timer);
      waiting = null;
    },
  };
}
