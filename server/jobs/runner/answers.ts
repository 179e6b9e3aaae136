/**
 * The matcher's answers, remembered for the length of a job: the matcher is pure, so people who
 * ask the same (same interests list, department and budget) share one answer, and one array.
 */
import type { Gift } from "../../../shared/tools.js";
import type { MatchGifts, MatchRequest } from "../job-service.js";

/**
 * Wraps `match`. Keyed by the interests array itself (the extract stage gives every distinct
 * text one array), which spares building a string key per person; forgets all past `limit`.
 */
export function createAnswers(match: MatchGifts, limit: number): (request: MatchRequest) => Gift[] {
  let byInterests = new Map<string[], Map<string, Map<number, Gift[]>>>();
  let size = 0;
  return (request) => {
    const department = request.department ?? "";
    let byDepartment = byInterests.get(request.interests);
    if (!byDepartment) byInterests.set(request.interests, (byDepartment = new Map()));
    let byBudget = byDepartment.get(department);
    if (!byBudget) byDepartment.set(department, (byBudget = new Map()));
    let gifts = byBudget.get(request.budget);
    if (gifts === undefined) {
      gifts = match(request);
      if (++size > limit) {
        byInterests = new Map();
        size = 0;
      } else byBudget.set(request.budget, gifts);
    }
    return gifts;
  };
}
