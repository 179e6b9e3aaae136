/**
 * The protocol's own keys in a message's `_meta` (those under `io.modelcontextprotocol/`): on a
 * 2026-07-28 request the per-request envelope (protocol version, client info, client
 * capabilities), on a reply the server's identity, on a listen stream's messages the
 * subscription id. The log shows them apart from the rest of the message.
 */
import { isRecord } from "../../json-values.js";

const RESERVED = "io.modelcontextprotocol/";

/** The reserved `_meta` keys of `message` (its params' or its result's), shortened to the part after the prefix; null when none. */
export function envelopeOf(message: unknown): Record<string, unknown> | null {
  if (!isRecord(message)) return null;
  const holder = isRecord(message.params) ? message.params : isRecord(message.result) ? message.result : null;
  const meta = holder && isRecord(holder._meta) ? holder._meta : null;
  if (!meta) return null;
  const found = Object.entries(meta).filter(([key]) => key.startsWith(RESERVED));
  return found.length === 0
    ? null
    : Object.fromEntries(found.map(([key, value]) => [key.slice(RESERVED.length), value]));
}
