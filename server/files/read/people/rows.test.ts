/**
 * One row at a time: budgets, the ID, and the reasons a row is skipped.
 */
import { parseBudget, readRecord } from "./rows.js";

const columns = {
  name: 0,
  department: 1,
  interests: 2,
  budget: 3,
  id: -1,
  width: 4,
  row: -1,
  skip: -1,
  separator: ",",
  headerRow: 1,
};

describe("parseBudget", () => {
  it.each([
    ["50", 50],
    [" 49.99 ", 49.99],
    ["$1,250", 1250],
    ["40 USD", 40],
    [".5", 0.5],
    ["12.", 12],
    ["12,5", 12.5],
  ])("reads %j in dollars as %d", (raw, value) => expect(parseBudget(raw, "USD")).toBe(value));

  it.each([
    ["50000", 50000],
    ["50,000원", 50000],
    ["50,000 원", 50000],
    ["₩50,000", 50000],
    ["￦50,000", 50000],
    ["5만원", 50000],
    ["5만 원", 50000],
    ["3만5천원", 35000],
    ["KRW 50,000", 50000],
    ["\\50,000", 50000], // the ₩ key of a Korean keyboard on Windows
    ["\\ 50000", 50000],
  ])("reads %j in won as %d", (raw, value) => expect(parseBudget(raw, "KRW")).toBe(value));

  it("reads a backslash as the sign of a job in won or yen only, the two whose keyboards type it for theirs", () => {
    expect(parseBudget("\\5,000", "JPY")).toBe(5000);
    expect(parseBudget("\\50", "USD")).toBe('its budget "\\\\50" is not a positive number');
  });

  it.each(["", "0", "-5", "abc", "1e3", "0x10", "Infinity", "5 5", "$"])("refuses %j", (raw) => {
    expect(parseBudget(raw, "USD")).toBe(`its budget ${JSON.stringify(raw.trim())} is not a positive number`);
  });

  it("refuses an amount in another currency than the job's, and says which", () => {
    expect(parseBudget("₩50,000", "USD")).toBe("its budget ₩50,000 is in KRW, but the job's budget is in USD");
    expect(parseBudget("$40", "KRW")).toBe("its budget $40 is in USD, but the job's budget is in KRW");
    expect(parseBudget("80 €", "USD")).toBe("its budget 80 € is in EUR, but the job's budget is in USD");
  });
});

describe("readRecord", () => {
  it("reads a person, trimming name and department", () => {
    expect(readRecord([" Zoë Ærø ", " R&D ", "a;b", "30"], 7, columns, 50)).toEqual({
      row: 7,
      name: "Zoë Ærø",
      department: "R&D",
      interestsText: "a;b",
      interests: [],
      budget: 30,
      budgetGiven: true,
      id: null,
      gifts: [],
    });
  });

  it("reads the ID from an ID column, trimmed, and notes a budget left to the default", () => {
    const withId = { ...columns, id: 4, width: 5 };
    expect(readRecord(["A", "x", "tea", "", " 1042 "], 2, withId, 40)).toMatchObject({
      id: "1042",
      budget: 40,
      budgetGiven: false,
    });
    expect(readRecord(["A", "x", "tea", "40", "  "], 2, withId, 40)).toMatchObject({ id: null, budgetGiven: true });
  });

  it("uses the default budget when the cell is empty, and null for no department", () => {
    expect(readRecord(["A", "", "", " "], 2, columns, 50)).toMatchObject({ department: null, budget: 50 });
    expect(readRecord(["A", "x", ""], 2, { ...columns, budget: -1, width: 3 }, 40)).toMatchObject({ budget: 40 });
    expect(
      readRecord(["A", "x"], 2, { ...columns, department: -1, interests: 1, budget: -1, width: 2 }, 40),
    ).toMatchObject({ department: null, interestsText: "x" });
  });

  it("takes the row from a row column and the reason from a skip column, as a staff file's job input has them", () => {
    const staff = { ...columns, row: 0, name: 1, department: 2, interests: 3, budget: 4, skip: 5, width: 6 };
    expect(readRecord(["17", "A", "", "tea", "", ""], 2, staff, 40)).toMatchObject({ row: 17, name: "A" });
    expect(readRecord(["18", "", "", "", "", "it has 5 fields but the header has 4"], 3, staff, 40)).toEqual({
      row: 18,
      reason: "it has 5 fields but the header has 4",
    });
    expect(readRecord(["19", "", "", "", "", ""], 4, staff, 40)).toEqual({ row: 19, reason: "the row is empty" });
    expect(readRecord(["x", "B", "", "", "", ""], 5, staff, 40)).toMatchObject({ row: 5 });
  });

  it.each([
    [["", "Sales", "coffee", "10"], "it has no name"],
    [["   ", "Sales", "coffee", "10"], "it has no name"],
    [["A", "Sales", "coffee", "ten"], 'its budget "ten" is not a positive number'],
    [["A", "Sales", "coffee", "0"], 'its budget "0" is not a positive number'],
    [["A", "Sales", "coffee"], "it has 3 fields but the header has 4"],
    [
      ["A", "Sales", "coffee", "10", "x"],
      "it has 5 fields but the header has 4; put quotes around values that contain commas",
    ],
    [[""], "the row is empty"],
    [["", " ", "", ""], "the row is empty"],
  ])("skips %j because %s", (fields, reason) => {
    expect(readRecord(fields, 3, columns, 50)).toEqual({ row: 3, reason });
  });
});
