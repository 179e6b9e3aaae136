import { clockTime } from "./clock.js";

describe("clockTime", () => {
  it("is HH:MM:SS(.mmm) on a 24-hour clock, whatever the locale", () => {
    const at = new Date(2025, 0, 2, 21, 4, 5, 6).getTime();
    expect(clockTime(at)).toBe("21:04:05");
    expect(clockTime(at, true)).toBe("21:04:05.006");
  });
});
