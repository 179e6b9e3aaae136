/**
 * Where a staff file handed over by URL may come from, as the configuration states it:
 * FILE_DOWNLOAD_HOSTS parsed into host names (each meaning its https port) and exact origins (plain
 * http only on loopback). files/download.ts holds every URL it fetches to this list.
 */
import { isLoopback } from "./origin.js";

const HOST_NAME = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/;

/** One FILE_DOWNLOAD_HOSTS entry: a host name as given, or an origin as URL spells it; undefined when neither. */
function parseEntry(entry: string): string | undefined {
  if (!entry.includes("://")) return HOST_NAME.test(entry.toLowerCase()) ? entry.toLowerCase() : undefined;
  const url = URL.parse(entry);
  if (url === null || url.username || url.password || url.pathname !== "/" || url.search || url.hash) return undefined;
  // plain http only to this machine: anything else would cross the network unencrypted
  if (url.protocol === "https:" || (url.protocol === "http:" && isLoopback(url.hostname))) return url.origin;
  return undefined;
}

/**
 * Parses FILE_DOWNLOAD_HOSTS ("files.example.com, *.cdn.example.com, https://files.example.com:8443");
 * undefined when an entry is neither a host name nor an origin (http only on loopback).
 */
export function parseDownloadHosts(list: string): string[] | undefined {
  const entries = list
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean)
    .map(parseEntry);
  return entries.every((e) => e !== undefined) ? entries : undefined;
}
