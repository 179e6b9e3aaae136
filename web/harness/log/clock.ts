/**
 * The time of day as the harness shows it: 24-hour `HH:MM:SS`, with `.mmm` if asked, whatever the
 * browser's locale (in ko-KR, toLocaleTimeString gives "22시 45분 23초", which breaks the log's column).
 */
const pad = (n: number, width = 2) => String(n).padStart(width, "0");

export function clockTime(at: number, withMs = false): string {
  const d = new Date(at);
  const hms = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  return withMs ? `${hms}.${pad(d.getMilliseconds(), 3)}` : hms;
}
