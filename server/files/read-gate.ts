/**
 * How many staff files are read at once: reading a workbook takes memory (up to the bound in
 * read/xlsx/read-limits.ts) and CPU, so a process reads a few at a time and the others wait their
 * turn, and one subject may have only a few reads running or waiting; past that, a refusal.
 */
import { fail, type Outcome } from "../outcomes.js";

export type GateLimits = { readsAtOnce: number; readsPerSubject: number };

export type ReadGate = <T>(subject: string, read: () => Promise<Outcome<T>>) => Promise<Outcome<T>>;

/** A gate that runs at most `readsAtOnce` reads together, each subject's at most `readsPerSubject` at once. */
export function createReadGate({ readsAtOnce, readsPerSubject }: GateLimits): ReadGate {
  let running = 0;
  const waiting: (() => void)[] = [];
  const bySubject = new Map<string, number>();
  /** A slot: taken at once when one is free, else handed over by a read that ends. */
  const turn = (): Promise<void> => {
    if (running < readsAtOnce) {
      running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next === undefined) running--;
    else next(); // the slot passes to the next in line
  };
  return async (subject, read) => {
    const mine = bySubject.get(subject) ?? 0;
    if (mine >= readsPerSubject) {
      return fail(
        "rate_limited",
        `${mine} of your files are being read already; a file is read when one of them is done.`,
        "Wait for the previews or analyses already asked for, then ask again.",
      );
    }
    bySubject.set(subject, mine + 1);
    try {
      await turn();
      try {
        return await read();
      } finally {
        release();
      }
    } finally {
      const left = (bySubject.get(subject) ?? 1) - 1;
      if (left === 0) bySubject.delete(subject);
      else bySubject.set(subject, left);
    }
  };
}
