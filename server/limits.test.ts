/**
 * How a refusal states a size against its limit: rounded the way texts round, and to the byte where
 * rounding would show the same figure twice ("8.0 MB; the limit is 8.0 MB" was the defect).
 */
import { megabytes, readInputLimits, resolveLimits, sizePair } from "./limits.js";

const MB = 1024 * 1024;

describe("sizePair", () => {
  it("rounds as texts do when the figures already differ", () => {
    expect(sizePair(9 * MB, 8 * MB)).toEqual(["9.0 MB", "8.0 MB"]);
    expect(sizePair(50 * MB, 16 * MB, megabytes)).toEqual(["50 MB", "16 MB"]);
  });

  it("falls back to bytes when rounding would show the same figure for different sizes", () => {
    expect(sizePair(8 * MB + 100, 8 * MB)).toEqual(["8,388,708 bytes", "8,388,608 bytes"]);
    expect(sizePair(16 * MB + 40_000, 16 * MB, megabytes)).toEqual(["16,817,216 bytes", "16,777,216 bytes"]);
  });

  it("keeps one figure when the sizes are the same", () => {
    expect(sizePair(8 * MB, 8 * MB)).toEqual(["8.0 MB", "8.0 MB"]);
  });
});

describe("readInputLimits", () => {
  it("lets a list the reader wrote be eight times the text's byte limit, every other limit as it was", () => {
    const limits = resolveLimits();
    expect(readInputLimits(limits)).toEqual({ ...limits, maxCsvBytes: 64 * MB });
  });
});
