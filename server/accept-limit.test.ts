/**
 * The accept limit: its size under an open-file limit, then a real HTTP server held to 20
 * connections: idle ones make way for newcomers, busy ones never do, and with every connection
 * busy a newcomer is closed at once.
 */
import { execFileSync } from "node:child_process";
import { createServer, get, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { connectionLimit, limitConnections, openFileLimit } from "./accept-limit.js";

it("keeps a reserve of descriptors below the open-file limit", () => {
  expect(connectionLimit(1024)).toBe(896);
  expect(connectionLimit(20_000)).toBe(19_000);
  expect(connectionLimit(100)).toBe(1);
  expect(connectionLimit(undefined)).toBe(10_000);
  expect(connectionLimit(Infinity)).toBe(10_000);
  expect(openFileLimit()).toBe(Number(execFileSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" })));
});

describe("a server held to 20 connections", () => {
  const MAX = 20;
  let server: Server;
  let port: number;
  /** Requests to /hold wait here until released. */
  const held: (() => void)[] = [];
  const sockets: Socket[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/hold") held.push(() => res.end("released"));
      else res.end("ok");
    });
    limitConnections(server, MAX);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.destroy();
    for (const release of held.splice(0)) release();
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const connections = () =>
    new Promise<number>((resolve, reject) => server.getConnections((e, n) => (e ? reject(e) : resolve(n))));
  /** A connection that sends nothing; resolves once the server has accepted (or closed) it. */
  const idleSocket = () =>
    new Promise<Socket>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => setImmediate(() => resolve(socket)));
      socket.on("error", () => {});
      sockets.push(socket);
    });
  /** A request on a connection of its own, as a health probe makes it: its status, or the error. */
  const probe = (path = "/") =>
    new Promise<string>((resolve) => {
      const req = get({ host: "127.0.0.1", port, path, agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve(String(res.statusCode)));
      });
      req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
  const closed = (socket: Socket) => socket.destroyed || socket.readableEnded;

  it("makes room for each newcomer by closing the connection idle longest", async () => {
    const flood: Socket[] = [];
    for (let i = 0; i < 100; i++) flood.push(await idleSocket());
    await vi.waitFor(async () => expect(await connections()).toBeLessThanOrEqual(MAX));
    // the newest 20 remain, the oldest 80 were closed in turn
    await vi.waitFor(() => expect(flood.filter(closed)).toHaveLength(100 - MAX));
    expect(flood.slice(0, 100 - MAX).every(closed)).toBe(true);
    for (let i = 0; i < 10; i++) expect(await probe()).toBe("200");
  });

  it("never closes a connection with a request in flight, and closes a newcomer when all are busy", async () => {
    const holds = Array.from({ length: MAX - 1 }, () => probe("/hold"));
    await vi.waitFor(() => expect(held).toHaveLength(MAX - 1));
    for (let i = 0; i < 50; i++) await idleSocket();
    // one place is left for idle connections: each probe takes it in turn
    for (let i = 0; i < 5; i++) expect(await probe()).toBe("200");
    const last = probe("/hold");
    await vi.waitFor(() => expect(held).toHaveLength(MAX));
    // every connection busy: a newcomer is closed before it is answered
    expect(await probe()).toMatch(/ECONNRESET|socket hang up/);
    for (const release of held.splice(0)) release();
    expect(await Promise.all([...holds, last])).toEqual(Array(MAX).fill("200"));
    expect(await probe()).toBe("200");
  });
});
