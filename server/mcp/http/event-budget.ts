/**
 * The byte budget of the resumability stores (`event-store.ts`), measured as the JSON length of
 * what they keep: each session's store holds at most `maxBytesPerSession`, all of them together at
 * most `maxBytes`, and nothing older than `ttlMs`. Past a limit the oldest events go first (those of
 * sessions that have ended are among the oldest); a message larger than a session's whole budget
 * is not kept at all: it is still sent, it just cannot be replayed.
 *
 * Why ours: the SDK's EventStore is an interface; a byte budget shared by every session's store is ours.
 */

export type EventBudgetOptions = {
  /** JSON kept by all sessions' stores together. */
  maxBytes?: number;
  /** JSON kept by one session's store. */
  maxBytesPerSession?: number;
  /** How long an event stays replayable; a client that reconnects later has missed it. */
  ttlMs?: number;
  now?: () => number;
};

/** A kept event: `json` is the message as stored, "" once it is forgotten. */
export type Kept = { seq: number; id: string; json: string; at: number; stream: Stream; owner: Owner };
/** A stream's kept events, in seq order. */
export type Stream = { events: Kept[] };
/** One store's share of the budget. */
export type Owner = { bytes: number; queue: Queue; pool: { used: number } };

export type EventBudget = ReturnType<typeof createEventBudget>;

/** A first-in first-out list that skips forgotten events. */
type Queue = { items: Kept[]; head: number };

function oldestKept(queue: Queue): Kept | undefined {
  while (queue.head < queue.items.length && queue.items[queue.head].json === "") queue.head++;
  if (queue.head > 1024 && queue.head * 2 > queue.items.length) {
    queue.items = queue.items.slice(queue.head);
    queue.head = 0;
  }
  return queue.items[queue.head];
}

/** Drops a kept event from its stream and gives its bytes back; forgetting twice does nothing. */
export function forget(event: Kept): void {
  if (event.json === "") return;
  const { owner, stream } = event;
  owner.bytes -= event.json.length;
  owner.pool.used -= event.json.length;
  event.json = "";
  const at = stream.events[0] === event ? 0 : stream.events.indexOf(event);
  if (at !== -1) stream.events.splice(at, 1);
}

export function createEventBudget({
  maxBytes = 64 * 1024 * 1024,
  maxBytesPerSession = 4 * 1024 * 1024,
  ttlMs = 5 * 60 * 1000,
  now = Date.now,
}: EventBudgetOptions = {}) {
  const pool = { used: 0 };
  // every kept event of every store, oldest first
  const all: Queue = { items: [], head: 0 };

  const forgetOldest = (queue: Queue) => {
    const oldest = oldestKept(queue);
    if (oldest) forget(oldest);
  };

  return {
    /** A share for a new store. */
    join: (): Owner => ({ bytes: 0, queue: { items: [], head: 0 }, pool }),

    /** Keeps an event on `stream` if it fits a session's budget, forgetting the oldest to make room. */
    keep(owner: Owner, stream: Stream, { seq, id, json }: { seq: number; id: string; json: string }) {
      const at = now();
      for (let old = oldestKept(all); old && at - old.at > ttlMs; old = oldestKept(all)) forget(old);
      oldestKept(owner.queue); // lets the store's list shed what other limits forgot
      if (json === "" || json.length > maxBytesPerSession) return;
      const event: Kept = { seq, id, json, at, stream, owner };
      stream.events.push(event);
      owner.queue.items.push(event);
      all.items.push(event);
      owner.bytes += json.length;
      pool.used += json.length;
      while (owner.bytes > maxBytesPerSession) forgetOldest(owner.queue);
      while (pool.used > maxBytes) forgetOldest(all);
    },
  };
}
