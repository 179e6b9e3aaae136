/**
 * Sessions kept in Redis across instances (a cluster), so that any instance serves any session:
 * their records in the Redis the jobs use (on a connection of their own, opened by the app) and
 * the job store their notification streams read.
 */
import { openRedis, watchConnection, type ConnectionListener } from "../../redis/connection.js";
import { createSessionRecords, type SessionRecords } from "./session-records.js";
import type { JobStreamStore } from "../job-streams.js";

export type ClusterSessions = {
  /** Session records kept for `ttlMs` after their last use. */
  records(ttlMs: number): SessionRecords;
  /** The job service's own store, which it closes. */
  store: JobStreamStore;
};

export type ClusterSessionsOptions = {
  /** The job store the notification streams read. */
  store: JobStreamStore;
  /** The Redis of the records, and the prefix of their keys. */
  url: string;
  keyPrefix: string;
  /** Hears the records' connection lost and back. */
  onConnectionChange?: ConnectionListener;
};

export function clusterSessionsOn({
  store,
  url,
  keyPrefix,
  onConnectionChange,
}: ClusterSessionsOptions): ClusterSessions {
  const records = (ttlMs: number) =>
    createSessionRecords(watchConnection(openRedis(url), onConnectionChange), keyPrefix, ttlMs);
  return { records, store };
}
