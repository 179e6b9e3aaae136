/**
 * How honest a job's ETA was: each progress report's `etaSeconds` against the time the job then
 * actually took to end. Shared by the ETA test and the jobs bench.
 */

/** A progress report as it was seen: when (ms, any monotonic clock), where the bar stood, its ETA. */
export type SeenReport = { at: number; percentage: number; etaSeconds?: number };

/**
 * The relative error of every ETA given from `fromPercent` on, while at least `minRemainingMs`
 * was left (below that the ETA's 0.1 s rounding is most of it): (said − actual) / actual.
 */
export function etaErrors(
  reports: readonly SeenReport[],
  endedAt: number,
  { fromPercent = 20, minRemainingMs = 500 } = {},
): number[] {
  return reports.flatMap(({ at, percentage, etaSeconds }) => {
    const remaining = endedAt - at;
    if (etaSeconds === undefined || percentage < fromPercent || remaining < minRemainingMs) return [];
    return [(etaSeconds * 1000 - remaining) / remaining];
  });
}

/** The largest error in size, with its sign: -0.3 is 30 % too short. */
export const worstError = (errors: readonly number[]): number =>
  errors.reduce((worst, e) => (Math.abs(e) > Math.abs(worst) ? e : worst), 0);
