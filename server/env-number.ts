/**
 * Numbers from the environment: undefined when the variable is unset or empty, else the number, or
 * an error that names the variable and what it takes (the entry points print it and exit).
 */
type Env = Record<string, string | undefined>;
type Rule = "whole, 0 or more" | "whole, at least 1" | "positive";

const ok: Record<Rule, (value: number) => boolean> = {
  "whole, 0 or more": (v) => Number.isInteger(v) && v >= 0,
  "whole, at least 1": (v) => Number.isInteger(v) && v >= 1,
  positive: (v) => v > 0,
};
const wanted: Record<Rule, string> = {
  "whole, 0 or more": "a whole number of 0 or more",
  "whole, at least 1": "a whole number of at least 1",
  positive: "a positive number",
};

export function envNumber(env: Env, name: string, rule: Rule): number | undefined {
  const text = env[name];
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!ok[rule](value)) throw new Error(`${name}=${text} is not ${wanted[rule]}.`);
  return value;
}
