/**
 * The session table on a clock the test moves: least recently used order, the idle floor, the
 * per-subject cap and its wait, the idle sweep, and forgetting.
 */
import { SessionTable, type SessionTableOptions } from "./sessions.js";

type Held = { subject: string; name: string };

function tableOf(options: Partial<SessionTableOptions> = {}) {
  let time = 1_000_000;
  const table = new SessionTable<Held>({
    maxSessions: 3,
    maxSessionsPerSubject: Infinity,
    minIdleMs: 60_000,
    idleMs: 30 * 60_000,
    now: () => time,
    ...options,
  });
  const add = (name: string, subject = "alice") => {
    const held = { subject, name };
    table.add(name, held);
    return held;
  };
  return { table, add, pass: (ms: number) => void (time += ms) };
}

const names = (room: { evicted: { id: string }[] }) => room.evicted.map((e) => e.id);

describe("the session table at its limit", () => {
  it("has room below the limit and evicts no one", () => {
    const { table, add } = tableOf();
    add("a");
    add("b");
    expect(table.makeRoom("alice")).toEqual({ evicted: [] });
    expect(table.size).toBe(2);
  });

  it("at the limit, refuses while every session is within the idle floor, saying when one passes it", () => {
    const { table, add, pass } = tableOf({ minIdleMs: 60_000 });
    add("a");
    pass(10_000);
    add("b");
    add("c");
    pass(15_500);
    // the oldest, "a", was used 25.5 s ago: it passes the floor in 34.5 s, said as 35
    expect(table.makeRoom("bob")).toEqual({ evicted: [], refused: { limit: "total", waitSeconds: 35 } });
    expect(table.size).toBe(3);
  });

  it("evicts the least recently used session past the floor, a use moving a session to the back", () => {
    const { table, add, pass } = tableOf();
    const a = add("a");
    add("b");
    add("c");
    pass(61_000);
    table.use("a");
    const room = table.makeRoom("bob");
    expect(names(room)).toEqual(["b"]);
    expect(room.refused).toBeUndefined();
    expect(table.get("b")).toBeUndefined();
    expect(table.get("a")).toBe(a);
    expect(table.sessions().map((s) => s.name)).toEqual(["c", "a"]);
  });

  it("never evicts a session while it has a stream open, and counts it used when the stream ends", () => {
    const { table, add, pass } = tableOf();
    add("a");
    add("b");
    add("c");
    const ended = table.openStream("a");
    pass(61_000);
    expect(names(table.makeRoom("bob"))).toEqual(["b"]);
    ended();
    table.add("d", { subject: "bob", name: "d" });
    // "a" was used just now, as its stream ended: the first in line, it is within the floor
    expect(table.makeRoom("bob")).toEqual({ evicted: [], refused: { limit: "total", waitSeconds: 60 } });
    pass(60_001);
    expect(names(table.makeRoom("bob"))).toEqual(["a"]);
  });

  it("waits the whole floor when every session has a stream open", () => {
    const { table, add, pass } = tableOf({ maxSessions: 1, minIdleMs: 5_000 });
    add("a");
    table.openStream("a");
    pass(600_000);
    expect(table.makeRoom("bob").refused).toEqual({ limit: "total", waitSeconds: 5 });
  });
});

describe("the session table's caps, sweep and forgetting", () => {
  it("caps one subject's sessions, evicting that subject's own idle one and no one else's", () => {
    const { table, add, pass } = tableOf({ maxSessions: 10, maxSessionsPerSubject: 2, minIdleMs: 1_000 });
    add("bob-1", "bob");
    add("a1");
    add("a2");
    const refused = table.makeRoom("alice");
    expect(refused).toEqual({ evicted: [], refused: { limit: "subject", waitSeconds: 1 } });
    expect(table.makeRoom("bob")).toEqual({ evicted: [] });
    pass(1_001);
    table.use("a1");
    expect(names(table.makeRoom("alice"))).toEqual(["a2"]);
    expect(table.get("bob-1")).toBeDefined();
  });

  it("hands back what it evicted for the subject's cap even when the total still refuses", () => {
    const { table, add, pass } = tableOf({ maxSessions: 2, maxSessionsPerSubject: 1, minIdleMs: 1_000 });
    add("a1");
    pass(1_001);
    add("b1", "bob");
    add("c1", "carol"); // past the total: held anyway, as two initializes that made room at once may be
    const room = table.makeRoom("alice");
    expect(names(room)).toEqual(["a1"]);
    expect(room.refused).toEqual({ limit: "total", waitSeconds: 1 });
  });

  it("hands the sweep the sessions idle past the idle time with no stream open", () => {
    const { table, add, pass } = tableOf({ idleMs: 100 });
    const a = add("a");
    add("b");
    add("c");
    table.openStream("c");
    pass(50);
    table.use("b");
    expect(table.idle()).toEqual([]);
    pass(51);
    expect(table.idle()).toEqual([a]);
    expect(table.size).toBe(3); // the sweep closes them; closing forgets them
  });

  it("forgets a session, and its subject's count with it; only the session it holds when one is named", () => {
    const { table, add } = tableOf({ maxSessionsPerSubject: 1, minIdleMs: 1_000 });
    const first = add("a");
    expect(table.makeRoom("alice").refused?.limit).toBe("subject");
    expect(table.forget("a", { subject: "alice", name: "a" })).toBe(false);
    expect(table.get("a")).toBe(first);
    expect(table.forget("a", first)).toBe(true);
    expect(table.forget("a")).toBe(false);
    expect(table.size).toBe(0);
    expect(table.makeRoom("alice")).toEqual({ evicted: [] });
  });

  it("ignores the use and streams of a session it does not hold", () => {
    const { table, add, pass } = tableOf({ idleMs: 10 });
    add("a");
    table.use("gone");
    table.openStream("gone")();
    pass(11);
    expect(table.idle().map((s) => s.name)).toEqual(["a"]);
  });
});
