/**
 * What the card keeps on this device: `localStorage`, or, where it throws (a sandboxed frame, a full
 * quota), memory for the page's life. The person's choices live here, never a result.
 */
const memory = new Map<string, string>();

/** The string kept under `key` (by this page first, then by an earlier one), or null. */
export function readKept(key: string): string | null {
  const kept = memory.get(key);
  if (kept !== undefined) return kept;
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function keep(key: string, value: string): void {
  memory.set(key, value);
  try {
    localStorage.setItem(key, value);
  } catch {
    // kept in memory only
  }
}
