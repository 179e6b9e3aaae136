/**
 * Number formats as Excel applies them: which codes show a date, a time of day or a number (quoted
 * text, escapes, colours and locales aside), which show a currency and where, and date serials in
 * both of Excel's date systems, Excel's phantom 1900-02-29 included.
 */
import { dateText, formatKind, formatMoney, numberText } from "./sheet-xml.js";

describe("formatKind", () => {
  it.each([
    ["yyyy-mm-dd", "date"],
    ['yyyy"년" m"월" d"일"', "date"],
    ["[$-412]yyyy-mm-dd;@", "date"],
    ["mmm", "date"],
    ["d-mmm-yy h:mm", "date"],
    ["h:mm", "time"],
    ["[h]:mm:ss", "time"],
    ["mm:ss", "time"],
    ["#,##0", "number"],
    ['#,##0"원"', "number"],
    ["[$₩-412]#,##0;[Red]-#,##0", "number"],
    ['0 "days"', "number"],
    ["0.00E+00", "number"],
    ["General", "number"],
    ["@", "number"],
  ])("%s shows a %s", (code, kind) => {
    expect(formatKind(code)).toBe(kind);
  });
});

describe("formatMoney", () => {
  it.each([
    ['"₩"#,##0', "₩", false], // Excel, Korean: currency
    ['_-"₩"* #,##0_-;-"₩"* #,##0_-;_-"₩"* "-"_-;_-@_-', "₩", false], // Excel, Korean: accounting
    ["[$₩-412]#,##0;[RED]\\-[$₩-412]#,##0", "₩", false], // LibreOffice, ko-KR
    ["[$₩]#,##0", "₩", false], // Google Sheets
    ['#,##0"원"', "원", true],
    ["#,##0\\원", "원", true], // LibreOffice, ko-KR
    ["\\₩#,##0", "₩", false],
    ["[$$-409]#,##0.00", "$", false],
    ["$#,##0.00_);($#,##0.00)", "$", false],
    ["[$€-x-euro2] #,##0.00", "€", false],
    ["#,##0.00 [$€-407]", "€", true],
    ["£#,##0.00", "£", false],
    ["[$¥-411]#,##0", "¥", false],
    ["[$USD] #,##0.00", "USD", false],
  ])("%s shows %s (after the number: %s)", (code, mark, after) => {
    expect(formatMoney(code)).toEqual({ mark, after });
  });

  it.each([
    "#,##0",
    "General",
    '0 "days"',
    "[$-412]yyyy-mm-dd;@",
    "[$$-1009]#,##0.00", // a Canadian dollar, which the catalog does not price
    "[$$-C09]#,##0.00", // an Australian one
    '"CA$"#,##0.00',
    "[Red]#,##0;[Blue]-#,##0",
  ])("%s shows no currency", (code) => {
    expect(formatMoney(code)).toBeUndefined();
  });
});

describe("dateText and numberText", () => {
  it("reads serials in the 1900 system, around its phantom leap day", () => {
    expect(dateText(1, "date", false)).toBe("1900-01-01");
    expect(dateText(59, "date", false)).toBe("1900-02-28");
    expect(dateText(61, "date", false)).toBe("1900-03-01");
    expect(dateText(45_658.5, "date", false)).toBe("2025-01-01T12:00:00");
    expect(dateText(0.75, "time", false)).toBe("18:00:00");
  });

  it("reads serials in the 1904 system", () => {
    expect(dateText(0, "date", true)).toBe("1904-01-01");
    expect(dateText(44_196, "date", true)).toBe("2025-01-01");
  });

  it("writes numbers as Excel shows them", () => {
    expect([0.1 + 0.2, 50_000, 1e21, -0.5, 123456789012345680].map(numberText)).toEqual([
      "0.3",
      "50000",
      "1e+21",
      "-0.5",
      "123456789012346000",
    ]);
  });
});
