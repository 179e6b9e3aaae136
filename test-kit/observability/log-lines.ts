/**
 * Reading what a process logged: its JSON lines as records (a line that is not JSON, such as one
 * printed before the logger existed, is kept as its text in `msg`).
 */

/** One logged line: pino's fields and whatever the line added. */
export type LogRecord = { level?: string; msg?: string; role?: string; jobId?: string } & Record<string, unknown>;

export function logRecords(text: string): LogRecord[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        const parsed: unknown = JSON.parse(line);
        if (typeof parsed === "object" && parsed !== null) return parsed as LogRecord;
      } catch {
        // not a JSON line
      }
      return { msg: line };
    });
}

/** The messages of the lines in `text`, in order. */
export const logMessages = (text: string): string[] => logRecords(text).map((r) => r.msg ?? "");
