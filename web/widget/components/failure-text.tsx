/**
 * A failed call or job, in words: the server's message and hint as text, or the widget's own
 * sentence for failures it made itself (the host unreachable, a timeout, an unreadable reply).
 */
import { useMessages } from "../i18n.js";

export type FailureTextProps = { error: { code: string; message: string; hint?: string }; role?: "alert" | "status" };

/** Message, then hint; never blank. */
export function FailureText({ error, role = "alert" }: FailureTextProps) {
  const t = useMessages();
  const message = error.message || t.localErrors[error.code] || t.toolFailed;
  return (
    <div className="gg-error" role={role}>
      <p>{message}</p>
      {error.hint && <p className="gg-hint">{error.hint}</p>}
    </div>
  );
}
