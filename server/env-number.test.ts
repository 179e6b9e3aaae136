import { envNumber } from "./env-number.js";

describe("numbers from the environment", () => {
  it.each([
    ["WORKERS", "0", "whole, 0 or more", 0],
    ["WORKERS", "4", "whole, 0 or more", 4],
    ["MAX_SESSIONS", "1", "whole, at least 1", 1],
    ["RETENTION_HOURS", "0.5", "positive", 0.5],
    ["RETENTION_HOURS", "", "positive", undefined],
    ["UNSET", undefined, "positive", undefined],
  ] as const)("reads %s=%s (%s) as %s", (name, text, rule, expected) => {
    expect(envNumber({ [name]: text }, name, rule)).toBe(expected);
  });

  it.each([
    ["WORKERS", "-1", "whole, 0 or more", "WORKERS=-1 is not a whole number of 0 or more."],
    ["WORKERS", "2.5", "whole, 0 or more", "WORKERS=2.5 is not a whole number of 0 or more."],
    ["MAX_SESSIONS", "0", "whole, at least 1", "MAX_SESSIONS=0 is not a whole number of at least 1."],
    ["MAX_SESSIONS", "many", "whole, at least 1", "MAX_SESSIONS=many is not a whole number of at least 1."],
    ["RETENTION_HOURS", "0", "positive", "RETENTION_HOURS=0 is not a positive number."],
    ["RETENTION_HOURS", "NaN", "positive", "RETENTION_HOURS=NaN is not a positive number."],
  ] as const)("refuses %s=%s (%s) in one line naming it", (name, text, rule, message) => {
    expect(() => envNumber({ [name]: text }, name, rule)).toThrow(new Error(message));
  });
});
