/**
 * Header names in English and Korean with their synonyms; the better synonym wins, a tie is named,
 * a person's choice overrides; the separator by the regularity of the first lines.
 */
import { matchHeaders, normalizeHeader } from "./headers.js";
import { detectSeparator } from "./separator.js";

describe("matchHeaders", () => {
  it.each([
    [["Name", "Department", "Interests", "Budget"], { name: 0, department: 1, interests: 2, budget: 3, id: -1 }],
    [["성명", "소속", "취미", "금액"], { name: 0, department: 1, interests: 2, budget: 3, id: -1 }],
    [["직원명", "팀", "관심사", "선물 예산"], { name: 0, department: 1, interests: 2, budget: 3, id: -1 }],
    [[" FULL_NAME ", "Dept.", "Likes", "Budget (USD)"], { name: 0, department: 1, interests: 2, budget: 3, id: -1 }],
    [["Notes", "Employee", "Hobbies"], { name: 1, department: -1, interests: 2, budget: -1, id: -1 }],
  ])("maps %j", (headers, columns) => {
    expect(matchHeaders(headers)).toEqual({ columns, missing: [], twice: [] });
  });

  it("prefers the better synonym, names a tie, and says what is missing", () => {
    expect(matchHeaders(["Employee", "Name", "Likes"]).columns.name).toBe(1);
    expect(matchHeaders(["name", "Name ", "x"])).toEqual({
      columns: { name: 0, department: -1, interests: -1, budget: -1, id: -1 },
      missing: ["interests"],
      twice: ["name"],
    });
  });

  it("takes a person's choice, and no header twice", () => {
    const m = matchHeaders(["Name", "Team", "Hobbies", "Notes"], { interests: 3, department: -1, name: 9 });
    expect(m.columns).toEqual({ name: -1, department: -1, interests: 3, budget: -1, id: -1 });
    expect(m.missing).toEqual(["name"]);
    expect(matchHeaders(["Name", "Hobbies"], { name: 1 }).columns).toMatchObject({ name: 1, interests: -1 });
  });

  it.each([
    "사번",
    "사원번호",
    "사원 번호",
    "사원_번호",
    "직원번호",
    "직원 번호",
    "직번",
    "사원 ID",
    "사원ID",
    "Employee ID",
    "employee id",
    "EMPLOYEE_ID",
    "Emp ID",
    "Emp. No.",
    "Staff ID",
    "ID",
    "id",
    "Employee Number",
    "Personnel Number",
  ])("takes %j as the ID column", (header) => {
    expect(matchHeaders(["이름", header, "관심사"])).toEqual({
      columns: { name: 0, department: -1, interests: 2, budget: -1, id: 1 },
      missing: [],
      twice: [],
    });
  });

  it("keeps the ID apart from the name: an employee's name is no ID, an ID no name", () => {
    expect(matchHeaders(["Employee", "Employee ID", "Hobbies"]).columns).toMatchObject({ name: 0, id: 1 });
    expect(matchHeaders(["사번", "성명", "부서", "취미"]).columns).toEqual({
      id: 0,
      name: 1,
      department: 2,
      interests: 3,
      budget: -1,
    });
  });

  it("normalizes case, width, spacing, punctuation and bracketed notes", () => {
    expect(normalizeHeader("Ｆｕｌｌ－Name [EN] (required)")).toBe("fullname");
  });
});

describe("detectSeparator", () => {
  it.each([
    ["name,department,interests\nA,B,coffee;tea\nC,D,x\n", ","],
    ["name;department;interests\nA;B,C;x|y\n", ";"],
    ["name\tinterests\nA, B\tx;y\n", "\t"],
    ["name|interests\nA|x;y\n", "|"],
    ["Staff export\n\nName;Team;Likes\nKim;Sales;coffee|tea\nLee;Ops;x\n", ";"],
    ['"a,b";c;d\n"e,f";g;h\n', ";"],
    ["name\nA\n", ","],
  ])("finds the separator of %j", (text, separator) => {
    expect(detectSeparator(text)).toBe(separator);
  });
});
