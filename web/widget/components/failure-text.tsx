/**
 * A failure in words a person reads: the server's message and hint, or the widget's own sentence
 * for failures it made itself and for a code whose message is in another language. A hint naming a
 * tool is for the model (the widget offers that action as a button), so it is not shown.
 */
import { FILE_TOOL } from "../../../shared/files.js";
import { TOOL } from "../../../shared/tools.js";
import { useMessages, type Messages } from "../i18n.js";

type Failure = { code: string; message: string; hint?: string };
/** `role` "none" for a failure the job's live region already tells. */
export type FailureTextProps = { error: Failure; role?: "alert" | "none" };

const TOOL_NAMES: string[] = [...Object.values(TOOL), ...Object.values(FILE_TOOL)];
const HANGUL = /[\uac00-\ud7a3]/;
const foreign = (t: Messages, text: string) => t.language === "ko" && !HANGUL.test(text);
const ownWords = (t: Messages, error: Failure): string | undefined =>
  t.localErrors[error.code] ?? (foreign(t, error.message) ? t.codeErrors[error.code] : undefined);

/** The failure's message as a person reads it; never blank. */
export const failureMessage = (t: Messages, error: Failure): string =>
  ownWords(t, error) ?? (error.message || t.toolFailed);

export function FailureText({ error, role = "alert" }: FailureTextProps) {
  const t = useMessages();
  const own = ownWords(t, error);
  const hint = error.hint !== undefined && !TOOL_NAMES.some((name) => error.hint?.includes(name)) ? error.hint : null;
  return (
    <div className="gg-error" role={role}>
      <p>{failureMessage(t, error)}</p>
      {hint && !(own && foreign(t, hint)) && <p className="gg-hint">{hint}</p>}
    </div>
  );
}
