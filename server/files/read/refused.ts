/**
 * A refusal thrown from deep inside the reading of a staff list (a limit passed) to stop it;
 * `readStaffFile` catches it and returns its outcome.
 */
import type { Outcome } from "../../outcomes.js";

export class Refused extends Error {
  constructor(readonly outcome: Outcome<never>) {
    super("refused");
  }
}
