/**
 * The sessions one instance holds, as bookkeeping only: least recently used first, how many each
 * subject holds, which session makes room for a newcomer (or how long until one could) and which
 * ones sit idle long enough to close. It reads the time from the clock it is given and closes
 * nothing itself: its caller closes what it hands back (sessions.ts).
 *
 * Why ours: the SDK puts no limit on sessions, in all or per subject.
 */

export type SessionTableOptions = {
  /** Past this many, the least recently used session idle for over `minIdleMs` makes room. */
  maxSessions: number;
  /** Past this many sessions of one subject, that subject's idle ones make room, or it is refused. */
  maxSessionsPerSubject: number;
  /** Sessions used more recently than this never make room. */
  minIdleMs: number;
  /** A session with no request and no open stream for this long is idle (see `idle`). */
  idleMs: number;
  now: () => number;
};

/** Which limit refused a newcomer, and in how many seconds one of the sessions could make room. */
export type Refusal = { limit: "subject" | "total"; waitSeconds: number };

/** What making room did: the sessions taken out of the table (to be closed), and a refusal if there is still none. */
export type Room<T> = { evicted: { id: string; session: T }[]; refused?: Refusal };

type Row<T> = { session: T; lastSeen: number; openStreams: number };

export class SessionTable<T extends { subject: string }> {
  // Map order is least recently used first: every use moves a row to the end.
  readonly #rows = new Map<string, Row<T>>();
  readonly #perSubject = new Map<string, number>();
  readonly #options: SessionTableOptions;

  constructor(options: SessionTableOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#rows.size;
  }

  get(id: string): T | undefined {
    return this.#rows.get(id)?.session;
  }

  sessions(): T[] {
    return [...this.#rows.values()].map((row) => row.session);
  }

  /** Holds `session` as `id`, used now. */
  add(id: string, session: T): void {
    this.#rows.set(id, { session, lastSeen: this.#options.now(), openStreams: 0 });
    this.#perSubject.set(session.subject, (this.#perSubject.get(session.subject) ?? 0) + 1);
  }

  /** Takes `id` out of the table (only if it holds `session`, when given); true when it did. */
  forget(id: string, session?: T): boolean {
    const row = this.#rows.get(id);
    if (!row || (session !== undefined && row.session !== session)) return false;
    this.#rows.delete(id);
    const count = (this.#perSubject.get(row.session.subject) ?? 1) - 1;
    if (count > 0) this.#perSubject.set(row.session.subject, count);
    else this.#perSubject.delete(row.session.subject);
    return true;
  }

  /** Notes a request on `id`: it becomes the most recently used. */
  use(id: string): void {
    const row = this.#rows.get(id);
    if (!row) return;
    this.#rows.delete(id);
    this.#rows.set(id, row);
    row.lastSeen = this.#options.now();
  }

  /**
   * Notes a stream opened on `id`: the session is never idle while it is open. Returns what to
   * call when it ends (the session counts as used then).
   */
  openStream(id: string): () => void {
    const row = this.#rows.get(id);
    if (!row) return () => {};
    row.openStreams++;
    return () => {
      row.openStreams--;
      row.lastSeen = this.#options.now();
    };
  }

  /** Sessions with no open stream and no request for over the idle time: the ones to close. */
  idle(): T[] {
    const now = this.#options.now();
    const rows = [...this.#rows.values()];
    return rows.filter((r) => r.openStreams === 0 && now - r.lastSeen > this.#options.idleMs).map((r) => r.session);
  }

  /**
   * Makes room for one more session of `subject`: past its cap, its least recently used session
   * idle past the floor is taken out; past the total, anyone's is. What was taken out is handed
   * back even when a limit still refuses the newcomer.
   */
  makeRoom(subject: string): Room<T> {
    const evicted: Room<T>["evicted"] = [];
    const { maxSessions, maxSessionsPerSubject } = this.#options;
    if ((this.#perSubject.get(subject) ?? 0) >= maxSessionsPerSubject) {
      const taken = this.#evict(subject);
      if (typeof taken === "number") return { evicted, refused: { limit: "subject", waitSeconds: taken } };
      evicted.push(taken);
    }
    if (this.#rows.size >= maxSessions) {
      const taken = this.#evict();
      if (typeof taken === "number") return { evicted, refused: { limit: "total", waitSeconds: taken } };
      evicted.push(taken);
    }
    return { evicted };
  }

  /**
   * Takes out the least recently used session (of `subject`, when given) that has no open stream
   * and has been idle past the floor; else returns the seconds until one could be.
   */
  #evict(subject?: string): { id: string; session: T } | number {
    const { minIdleMs, now } = this.#options;
    let waitMs = minIdleMs;
    for (const [id, row] of this.#rows) {
      if (row.openStreams > 0 || (subject !== undefined && row.session.subject !== subject)) continue;
      const idle = now() - row.lastSeen;
      if (idle > minIdleMs) {
        this.forget(id);
        return { id, session: row.session };
      }
      // least recently used first: the first candidate is the first to pass the floor
      waitMs = minIdleMs - idle;
      break;
    }
    return Math.max(1, Math.ceil(waitMs / 1000));
  }
}
