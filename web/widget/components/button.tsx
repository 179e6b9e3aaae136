/** The widget's one button: plain, or `secondary`/`danger` in their colours; never a form's submit. */
import type { ComponentProps } from "react";

export type ButtonProps = ComponentProps<"button"> & { kind?: "secondary" | "danger" };

export function Button({ kind, ...props }: ButtonProps) {
  return <button type="button" className={kind ? `gg-button gg-${kind}` : "gg-button"} {...props} />;
}
