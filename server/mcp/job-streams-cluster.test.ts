/**
 * Sessions kept in Redis across two in-process instances (a cluster), at their limit: the session one instance
 * closes to make room is ended in Redis too when no instance used it for the idle floor, so a flood
 * of `initialize` calls cannot leave more records than the instances hold; one used elsewhere lives on.
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import { createRedisStore } from "../jobs/stores/redis.js";
import { clusterSessionsOn } from "./job-streams.js";
import { deleteKeysUnder, redisUnreachable, redisUrl } from "../../test-kit/redis.js";
import { openRawSession, postRaw, startTestServer, type TestServer } from "../../test-kit/servers/test-server.js";

const unreachable = await redisUnreachable("the cluster session tests");

describe.runIf(unreachable === undefined)("sessions kept in Redis by two instances, at their limit", () => {
  const prefix = `giftgenius-test:${randomUUID()}:`;
  const floorMs = 1_000;
  let a: TestServer, b: TestServer;
  beforeAll(async () => {
    const start = () => {
      const store = createRedisStore({ url: redisUrl, keyPrefix: prefix });
      return startTestServer({
        jobs: createJobService({ store, match: matchGifts }),
        clusterSessions: clusterSessionsOn({ store, url: redisUrl, keyPrefix: prefix }),
        maxSessions: 2,
        sessionMinIdleMs: floorMs,
      });
    };
    [a, b] = await Promise.all([start(), start()]);
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
    const admin = new Redis(redisUrl);
    await deleteKeysUnder(admin, prefix);
    await admin.quit();
  });

  const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });

  it("ends in Redis the session it makes room with, unless another instance used it meanwhile", async () => {
    const first = await openRawSession(a.mcpUrl);
    const second = await openRawSession(a.mcpUrl);
    await new Promise((r) => setTimeout(r, floorMs + 100));
    // the second is used on B: A may close its copy, but the session lives on
    expect((await postRaw(b.mcpUrl, ping, second.headers)).status).toBe(200);
    await openRawSession(a.mcpUrl); // A closes the first (least recently used) to make room
    await vi.waitFor(async () => expect((await postRaw(b.mcpUrl, ping, first.headers)).status).toBe(404));
    await openRawSession(a.mcpUrl); // and now the second, used on B a moment ago
    await new Promise((r) => setTimeout(r, 200));
    expect((await postRaw(b.mcpUrl, ping, second.headers)).status).toBe(200);
    expect((await postRaw(a.mcpUrl, ping, second.headers)).status).toBe(503); // A is full of newer sessions
  });
});
