/** The state of a call the person starts from the card (Cancel, Try again, a download). */
import { useState } from "react";
import type { ToolOutcome } from "../tool-reply.js";

/** `busy` until the call answers (a disabled button), then its outcome and `error` to show in words (none while busy). */
export function useCall<A extends unknown[], T>(call: (...args: A) => Promise<ToolOutcome<T>>) {
  const [state, setState] = useState<{ busy: boolean; outcome: ToolOutcome<T> | null }>({ busy: false, outcome: null });
  const run = async (...args: A) => {
    setState({ busy: true, outcome: null });
    setState({ busy: false, outcome: await call(...args) });
  };
  const { outcome } = state;
  return { ...state, run, error: outcome?.ok === false ? outcome.error : null };
}
