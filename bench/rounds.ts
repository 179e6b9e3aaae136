/**
 * Comparing configurations of one server on a small machine, where the load generator and the
 * servers share the cores and the machine's speed drifts over a minute. Two things move a figure
 * more than the cost being measured: the drift, and the process itself (four processes of the
 * same server, same configuration, measured in turn differ by up to 15 % in req/s, as each
 * compiles its hot code its own way). So each configuration runs in several processes, every
 * process is measured for a short while in turn, round after round (the order turned each round,
 * so that none always follows the same neighbour), and a configuration keeps the median of all
 * its processes' rounds. Beside req/s, it keeps the CPU its server processes spent per answered
 * request, read from /proc, a figure that the load generator's share of the cores does not move.
 */
import { readFileSync } from "node:fs";
import type { Target } from "./children.js";
import { load, type Load, type LoadOptions } from "./load.js";
import { median } from "./table.js";

/**
 * A configuration's median req/s, p50 and p99 (ms), its bad answers in all, and its median server
 * CPU per request (µs; null where /proc is not there).
 */
export type RoundsResult = { rps: number; p50: number; p99: number; bad: number; cpuMicrosPerRequest: number | null };

/** User plus system CPU of `pid` in µs, or null off Linux. */
function cpuMicros(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // the fields after the command's name, which is in parentheses and may hold spaces
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  return (ticks * 1_000_000) / 100; // USER_HZ is 100 on Linux
}

export type RoundsOptions = {
  rounds: number;
  seconds: number;
  /** The request and its check, for each target (its own body: ids of its own job). */
  run: (t: Target) => Omit<LoadOptions, "seconds">;
};

/**
 * Every target of every group measured in `rounds` turns of `seconds` each; each group's result
 * (the median over its targets and rounds), in the groups' order.
 */
export async function measureInRounds(
  groups: Target[][],
  { rounds, seconds, run }: RoundsOptions,
): Promise<RoundsResult[]> {
  // the groups' processes interleaved (a process of each group, then the next of each), so that a
  // round's drift spreads over every group
  const order = groups[0].flatMap((_, k) => groups.map((_, g) => ({ g, t: groups[g][k] })));
  const loads: Load[][] = groups.map(() => []);
  const cpu: (number | null)[][] = groups.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < order.length; k++) {
      const { g, t } = order[(r + k) % order.length];
      const before = cpuMicros(t.pid);
      const l = await load({ ...run(t), seconds });
      const after = cpuMicros(t.pid);
      if (l.ok === 0 || l.bad > l.ok / 100) throw new Error(`${t.name}: ${l.bad} bad answers of ${l.ok + l.bad}`);
      loads[g].push(l);
      cpu[g].push(before === null || after === null ? null : (after - before) / (l.ok + l.bad));
    }
  }
  return groups.map((_, g) => ({
    rps: median(loads[g].map((l) => l.rps)),
    p50: median(loads[g].map((l) => l.p50)),
    p99: median(loads[g].map((l) => l.p99)),
    bad: loads[g].reduce((sum, l) => sum + l.bad, 0),
    cpuMicrosPerRequest: cpu[g].includes(null) ? null : median(cpu[g] as number[]),
  }));
}

/**
 * The best time (ms) of each of `tasks` over `rounds` rounds in this process, taken in turns with
 * the order turned each round, so that a slow moment of the machine falls on no task alone.
 */
export async function bestInTurns(rounds: number, tasks: (() => unknown)[]): Promise<number[]> {
  const best = tasks.map(() => Infinity);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < tasks.length; k++) {
      const i = (r + k) % tasks.length;
      const t0 = performance.now();
      await tasks[i]();
      best[i] = Math.min(best[i], performance.now() - t0);
    }
  }
  return best;
}
