/**
 * Schema issues as sentences a caller can act on (which field, what was expected, what arrived),
 * for tool arguments (an `isError` result) and protocol params (a -32602 error).
 */
import type * as z from "zod/mini";

/** A zod issue: zod and zod/mini give the same. */
type Issue = z.core.$ZodIssue;

/** A caller's string as a message may repeat it: a short prefix that says how long it was. */
export function clip(text: string, max = 100): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length.toLocaleString("en-US")} characters)`;
}

/** `a.b[2]`, or "the value" for the root. */
function fieldName(path: PropertyKey[]): string {
  if (path.length === 0) return "the value";
  const parts = path.map((p) => clip(String(p)));
  return `\`${parts.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join("")}\``;
}

const valueAt = (input: unknown, path: PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (v, key) => (typeof v === "object" && v !== null ? (v as Record<PropertyKey, unknown>)[key] : undefined),
    input,
  );

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number" && !Number.isInteger(value)) return "a fraction";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

const EXPECTED: Record<string, string> = {
  int: "a whole number",
  number: "a number",
  string: "a string",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  record: "an object",
};

function bound(issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall): string {
  const big = issue.code === "too_big";
  const limit = String(big ? issue.maximum : issue.minimum);
  const most = `${big ? "at most" : "at least"} ${limit}`;
  const plural = limit === "1" ? "" : "s";
  if (issue.origin === "string") return `${most} character${plural} long`;
  if (issue.origin === "array" || issue.origin === "set") return `${most} item${plural}`;
  return issue.inclusive === false ? `${big ? "less" : "greater"} than ${limit}` : most;
}

/** One sentence fragment per issue, e.g. "`budget` must be a number, got a string". */
export function describeIssues(issues: readonly Issue[], input: unknown): string[] {
  return issues.map((issue) => {
    const field = fieldName(issue.path);
    switch (issue.code) {
      case "invalid_type": {
        const expected = EXPECTED[issue.expected] ?? issue.expected;
        const value = valueAt(input, issue.path);
        if (value === undefined && issue.path.length > 0) return `${field} is required (${expected})`;
        return `${field} must be ${expected}, got ${kindOf(value)}`;
      }
      case "too_small":
        return issue.origin === "string" && String(issue.minimum) === "1"
          ? `${field} must not be empty`
          : `${field} must be ${bound(issue)}`;
      case "too_big":
        return `${field} must be ${bound(issue)}`;
      case "invalid_value":
        return `${field} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
      case "invalid_format":
        return `${field} must be a valid ${issue.format}`;
      case "unrecognized_keys":
        return `${field} has unknown field${issue.keys.length === 1 ? "" : "s"} ${issue.keys.map((k) => clip(k)).join(", ")}`;
      case "invalid_union":
        return `${field} does not match any accepted form`;
      default:
        return `${field} is invalid${issue.message && issue.message !== "Invalid input" ? `: ${issue.message}` : ""}`;
    }
  });
}
