/**
 * The state of a call the person starts from the card (Cancel, Try again, a download): busy while it
 * runs, then its outcome, so a component shows a disabled button and the failure in words.
 */
import { useState } from "react";
import type { ToolOutcome } from "../tool-reply.js";

/** A call the person makes: `busy` until it answers, then its outcome and `error` (none while busy). */
export function useCall<A extends unknown[], T>(call: (...args: A) => Promise<ToolOutcome<T>>) {
  const [state, setState] = useState<{ busy: boolean; outcome: ToolOutcome<T> | null }>({ busy: false, outcome: null });
  const run = async (...args: A) => {
    setState({ busy: true, outcome: null });
    setState({ busy: false, outcome: await call(...args) });
  };
  const { outcome } = state;
  return { ...state, run, error: outcome?.ok === false ? outcome.error : null };
}
