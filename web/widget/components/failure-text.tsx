/**
 * A failed call or job, in words a person reads: the server's message and hint, or the widget's
 * own sentence for failures it made itself (the host unreachable, a timeout, an unreadable reply)
 * and, where the server wrote in another language than the widget's, for the failure's code. A
 * hint that names a tool is the model's ("run it again with start_bulk_gift_analysis"): the widget
 * offers that action as a button of its own, so the hint is not shown.
 */
import { FILE_TOOL } from "../../../shared/files.js";
import { TOOL } from "../../../shared/tools.js";
import { useMessages } from "../i18n.js";

export type FailureTextProps = { error: { code: string; message: string; hint?: string }; role?: "alert" | "status" };

const TOOL_NAMES: string[] = [...Object.values(TOOL), ...Object.values(FILE_TOOL)];
const HANGUL = /[\uac00-\ud7a3]/;

/** Message, then hint; never blank. */
export function FailureText({ error, role = "alert" }: FailureTextProps) {
  const t = useMessages();
  const foreign = (text: string) => t.language === "ko" && !HANGUL.test(text);
  const own = t.localErrors[error.code] ?? (foreign(error.message) ? t.codeErrors[error.code] : undefined);
  const message = own ?? (error.message || t.toolFailed);
  const hint = error.hint !== undefined && !TOOL_NAMES.some((name) => error.hint?.includes(name)) ? error.hint : null;
  return (
    <div className="gg-error" role={role}>
      <p>{message}</p>
      {hint && !(own && foreign(hint)) && <p className="gg-hint">{hint}</p>}
    </div>
  );
}
