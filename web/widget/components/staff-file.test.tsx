// @vitest-environment jsdom
/**
 * The staff file from the widget's picker to its job, over the fake host: a file over the limit
 * refused before a byte is sent, chunks sent once and only the missing ones after a failed upload
 * is tried again, a preview whose selects ask again with the person's reading, and Start calling
 * start_bulk_gift_analysis with the upload and that reading, then following the new job.
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { FILE_TOOL, type AwaitingFile, type Reading, type StaffPreview } from "../../../shared/files.js";
import { TOOL } from "../../../shared/tools.js";
import { App } from "../app.js";
import {
  installFakeHost,
  samplePreview,
  type FakeHost,
  type FakeHostOptions,
} from "../../../test-kit/widget/fake-host.js";
import type { FollowTuning } from "../follow-job.js";
import { createHost } from "../host-context.js";
import type { Host } from "../host.js";

const FAST: FollowTuning = { waitMs: 0, backoff: { baseMs: 1, maxMs: 4 }, idleMs: 1, callTimeoutMs: 2000 };
const SLOW = { timeout: 4000 };
const REQUEST: AwaitingFile = {
  awaitingFile: true,
  occasion: "Year-end",
  budgetPerPerson: 60,
  maxFileBytes: 16 * 1024 * 1024,
};
/** 31 bytes of UTF-8: eight chunks of 4 bytes in the fake server. */
const CSV = "이름,부서\n김민준,영업\n";

beforeEach(() => Reflect.set(globalThis, "IS_REACT_ACT_ENVIRONMENT", false));
let fake: FakeHost;
let host: Host;
afterEach(() => {
  host?.dispose();
  fake?.uninstall();
});

function mount(options: FakeHostOptions = {}) {
  fake = installFakeHost({ toolOutput: REQUEST, toolInput: { occasion: "Year-end", budgetPerPerson: 60 }, ...options });
  host = createHost();
  return render(<App host={host} tuning={FAST} />);
}
const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
const choose = (file: File) => userEvent.upload(fileInput(), file);
const fileCalls = () => fake.calls.filter((c) => (Object.values(FILE_TOOL) as string[]).includes(c.name));
const staffFile = () => new File([CSV], "staff.csv", { type: "text/csv" });

describe("the file picker", () => {
  it("refuses a file over the limit before sending a byte, with the limit in words", async () => {
    mount();
    expect(screen.getByText("Choose a file or drop it here")).toBeTruthy();
    expect(screen.getByText("Excel (.xlsx), CSV or TSV, up to 16 MB")).toBeTruthy();
    expect(fileInput().accept).toContain(".xlsx");
    await choose(new File([new Uint8Array(50 * 1024 * 1024)], "staff.xlsx"));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toMatch(/^staff\.xlsx is 50 MB; the largest file GiftGenius reads is 16 MB\./);
    expect(fileCalls()).toEqual([]);
  });

  it("says so in Korean too, and refuses an empty file", async () => {
    mount({ locale: "ko-KR" });
    expect(screen.getByText("파일을 선택하거나 여기에 끌어다 놓으세요")).toBeTruthy();
    await choose(new File([new Uint8Array(20 * 1024 * 1024)], "명단.csv"));
    expect((await screen.findByRole("alert")).textContent).toMatch(/^명단\.csv 파일은 20MB입니다\. .*최대 16MB/);
    await choose(new File([], "빈.csv"));
    expect((await screen.findByRole("alert")).textContent).toBe("빈.csv 파일이 비어 있습니다.");
    expect(fileCalls()).toEqual([]);
  });

  it("asks a Korean person for the file with the budget in won, and reads the file's budgets in won", async () => {
    const request = { ...REQUEST, budgetPerPerson: 50_000 };
    mount({ locale: "ko-KR", toolOutput: request, toolInput: { occasion: "Year-end", budgetPerPerson: 50_000 } });
    expect(document.body.textContent).toContain("₩50,000");
    expect(document.body.textContent).not.toContain("$50,000");
    await choose(staffFile());
    await waitFor(() => expect(fake.argsOf(FILE_TOOL.preview)).toHaveLength(1), SLOW);
    expect(fake.argsOf(FILE_TOOL.preview)[0]).toMatchObject({ reading: { currency: "KRW" }, locale: "ko-KR" });
  });

  it("keeps the currency the model gave over the locale's", () => {
    mount({ locale: "ko-KR", toolOutput: { ...REQUEST, currency: "USD" } });
    expect(document.body.textContent).toContain("$60");
  });
});

describe("the upload", () => {
  it("sends each chunk once, checks the digest, and asks for the preview", async () => {
    mount();
    await choose(staffFile());
    expect(await screen.findByText("staff.csv", {}, SLOW)).toBeTruthy();
    const [begin] = fake.argsOf(FILE_TOOL.beginUpload);
    const bytes = new TextEncoder().encode(CSV);
    const digest = Buffer.from(await crypto.subtle.digest("SHA-256", bytes)).toString("hex");
    expect(begin).toEqual({ name: "staff.csv", size: bytes.length, sha256: digest, mimeType: "text/csv" });
    expect(fake.argsOf(FILE_TOOL.putChunk).map((a) => a.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(new TextDecoder().decode(Uint8Array.from(fake.assembled("up-1")!, (c) => c.charCodeAt(0)))).toBe(CSV);
    // in the host's language, which says why rows are skipped
    // the budgets read in the currency the job will have: en-US's dollars
    expect(fake.argsOf(FILE_TOOL.preview)).toEqual([
      { uploadId: "up-1", reading: { currency: "USD" }, locale: "en-US" },
    ]);
    // ChatGPT's uploadFile takes images only: a staff list never goes through it
    expect(fake.argsOf("uploadFile")).toEqual([]);
  });

  it("retries a lost chunk reply, and after it gives up sends only the missing chunks when tried again", async () => {
    // the third put's reply is lost five times running: the server kept chunk 2, the widget gave up
    mount({ files: { dropChunkReplies: [3, 4, 5, 6, 7] } });
    await choose(staffFile());
    const retry = await screen.findByRole("button", { name: "Try again" }, SLOW);
    expect(screen.getByRole("progressbar", { name: "Upload" }).getAttribute("aria-valuenow")).toBe("25");
    expect(fake.argsOf(FILE_TOOL.putChunk).map((a) => a.index)).toEqual([0, 1, 2, 2, 2, 2, 2]);
    await userEvent.click(retry);
    expect(await screen.findByText("staff.csv", {}, SLOW)).toBeTruthy();
    expect(fake.argsOf(FILE_TOOL.beginUpload)).toHaveLength(2);
    expect(fake.argsOf(FILE_TOOL.putChunk).map((a) => a.index)).toEqual([0, 1, 2, 2, 2, 2, 2, 3, 4, 5, 6, 7]);
    expect(new TextDecoder().decode(Uint8Array.from(fake.assembled("up-1")!, (c) => c.charCodeAt(0)))).toBe(CSV);
  });

  it("stops sending a file when another is to be chosen", async () => {
    mount({ latencyMs: 5 });
    await choose(new File(["x".repeat(400)], "long.csv", { type: "text/csv" }));
    await waitFor(() => expect(fake.argsOf(FILE_TOOL.putChunk).length).toBeGreaterThan(2));
    await userEvent.click(screen.getByRole("button", { name: "Choose another file" }));
    expect(screen.getByText("Choose a file or drop it here")).toBeTruthy();
    const sent = fake.argsOf(FILE_TOOL.putChunk).length;
    await new Promise((r) => setTimeout(r, 60));
    // the call in flight when the person chose again was the last
    expect(fake.argsOf(FILE_TOOL.putChunk).length).toBe(sent);
    expect(sent).toBeLessThan(100);
    expect(fake.argsOf(FILE_TOOL.preview)).toEqual([]);
    // the server drops what was sent, so that it holds no room in the person's quota
    await waitFor(() => expect(fake.argsOf(FILE_TOOL.dropUpload)).toEqual([{ uploadId: "up-1" }]));
  });

  it("drops an upload the person left before the server had begun it", async () => {
    // the begin's reply takes a second: time enough to leave it on a busy machine
    mount({ latencyMs: 1000 });
    await choose(staffFile());
    await waitFor(() => expect(fake.argsOf(FILE_TOOL.beginUpload)).toHaveLength(1));
    await userEvent.click(screen.getByRole("button", { name: "Choose another file" }));
    await waitFor(() => expect(fake.argsOf(FILE_TOOL.dropUpload)).toEqual([{ uploadId: "up-1" }]), SLOW);
    expect(fake.argsOf(FILE_TOOL.putChunk)).toEqual([]);
  });

  it("resumes a file chosen again after the widget went away, sending only what is missing", async () => {
    const first = mount({ files: { dropChunkReplies: [4, 5, 6, 7, 8] } });
    await choose(staffFile());
    await screen.findByRole("button", { name: "Try again" }, SLOW);
    first.unmount();
    host.dispose();
    // the same fake server, a new widget: the person picks the same file again
    host = createHost();
    render(<App host={host} tuning={FAST} />);
    await choose(staffFile());
    expect(await screen.findByText("staff.csv", {}, SLOW)).toBeTruthy();
    expect(fake.argsOf(FILE_TOOL.putChunk).map((a) => a.index)).toEqual([0, 1, 2, 3, 3, 3, 3, 3, 4, 5, 6, 7]);
    // a widget that goes away keeps the upload, for the resume
    expect(fake.argsOf(FILE_TOOL.dropUpload)).toEqual([]);
  });
});

describe("the preview", () => {
  async function preview(options: FakeHostOptions = {}) {
    mount(options);
    await choose(staffFile());
    await screen.findByText("staff.csv", {}, SLOW);
  }

  it("shows what the server understood: how it read the file, the columns, the first rows, the counts and the skipped rows", async () => {
    await preview();
    expect(screen.getByText("CSV · CP949 / EUC-KR · separated by “,”")).toBeTruthy();
    expect(screen.getByText("3 rows: 2 people, 1 skipped")).toBeTruthy();
    expect(screen.getByLabelText<HTMLSelectElement>("Name").selectedOptions[0].textContent).toBe("이름");
    const rows = within(screen.getByRole("table")).getAllByRole("row");
    expect(rows.map((r) => r.textContent)).toEqual([
      "RowNameDepartmentInterestsBudget",
      "2김민준영업커피50",
      "3이서연개발등산",
    ]);
    expect(screen.getByText("Row 4")).toBeTruthy();
    expect(screen.getByText(/No name/)).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Start" }).disabled).toBe(false);
  });

  it("asks again with the person's reading when a select changes", async () => {
    await preview();
    await userEvent.selectOptions(screen.getByLabelText("Department"), "(none)");
    await waitFor(() => expect(fake.argsOf(FILE_TOOL.preview)).toHaveLength(2));
    expect(fake.argsOf(FILE_TOOL.preview)[1]).toEqual({
      uploadId: "up-1",
      reading: { currency: "USD", columns: { name: 0, department: -1, interests: 2, budget: 3, id: -1 } },
      locale: "en-US",
    });
    await waitFor(() => expect(screen.getByLabelText<HTMLSelectElement>("Department").value).toBe("-1"));
    await userEvent.selectOptions(screen.getByLabelText("Encoding"), "UTF-8");
    await waitFor(() => expect(fake.argsOf(FILE_TOOL.preview)).toHaveLength(3));
    expect(fake.argsOf(FILE_TOOL.preview)[2].reading).toEqual({
      currency: "USD",
      encoding: "utf-8",
      columns: { name: 0, department: -1, interests: 2, budget: 3, id: -1 },
    });
  });

  it("asks for an encoding it could only guess, lists the problems and offers no Start until they are settled", async () => {
    await preview({
      files: {
        preview: (reading, name) => ({
          ...samplePreview(reading, name),
          encodingCertain: reading.encoding !== undefined,
          problems: reading.encoding ? [] : ["The encoding could not be told."],
          ready: reading.encoding !== undefined,
        }),
      },
    });
    const encoding = screen.getByLabelText<HTMLSelectElement>("Encoding");
    expect(encoding.value).toBe("");
    expect(screen.getByText(/The encoding is a guess/)).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toBe("The encoding could not be told.");
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Start" }).disabled).toBe(true);
    // choosing the guessed encoding confirms it
    await userEvent.selectOptions(encoding, "CP949 / EUC-KR");
    await waitFor(() => expect(screen.getByRole<HTMLButtonElement>("button", { name: "Start" }).disabled).toBe(false));
    expect(fake.argsOf(FILE_TOOL.preview).at(-1)?.reading).toEqual({ currency: "USD", encoding: "euc-kr" });
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("offers a sheet select for a workbook", async () => {
    await preview({
      files: {
        preview: (reading, name) => ({
          ...samplePreview(reading, name),
          format: "xlsx",
          encoding: null,
          separator: null,
          sheets: [
            { name: "직원", rows: 121, hidden: false },
            { name: "요약", rows: 3, hidden: false },
          ],
          sheet: reading.sheet ?? "직원",
        }),
      },
    });
    expect(screen.queryByLabelText("Encoding")).toBeNull();
    // each sheet is offered with the rows it holds
    expect(screen.getByRole<HTMLOptionElement>("option", { name: "직원 (121)" }).value).toBe("직원");
    await userEvent.selectOptions(screen.getByLabelText("Sheet"), "요약");
    await waitFor(() =>
      expect(fake.argsOf(FILE_TOOL.preview).at(-1)?.reading).toEqual({ currency: "USD", sheet: "요약" }),
    );
  });

  it("starts the analysis of the upload as read, then follows the new job", async () => {
    await preview();
    await userEvent.selectOptions(screen.getByLabelText("Budget"), "(none)");
    await waitFor(() => expect(screen.getByLabelText<HTMLSelectElement>("Budget").value).toBe("-1"));
    await userEvent.click(screen.getByRole("button", { name: "Start" }));
    expect(await screen.findByText("Completed", {}, SLOW)).toBeTruthy();
    expect(fake.argsOf(FILE_TOOL.dropUpload)).toEqual([]); // the server drops it once the job completes
    expect(fake.argsOf(TOOL.startBulk)).toEqual([
      {
        uploadId: "up-1",
        reading: { currency: "USD", columns: { name: 0, department: 1, interests: 2, budget: -1, id: -1 } },
        occasion: "Year-end",
        budgetPerPerson: 60,
        locale: "en-US",
        currency: "USD",
      },
    ]);
    expect(fake.argsOf(TOOL.getJobEvents).at(-1)).toMatchObject({ jobId: "job-2" });
    expect(fake.argsOf("setWidgetState").at(-1)).toMatchObject({ state: { jobId: "job-2" } });
  });

  it("names a file no reader can open in the person's language, and stops saying it is reading it", async () => {
    mount({
      locale: "ko-KR",
      files: {
        previewFailure: {
          code: "unreadable_file",
          message: "The file is neither a spreadsheet nor a CSV or text file.",
        },
      },
    });
    await choose(new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], "명단.xlsx"));
    const alert = await screen.findByRole("alert", {}, SLOW);
    expect(alert.textContent).toMatch(/^이 파일은 읽을 수 있는 스프레드시트나 CSV가 아닙니다\./);
    expect(screen.getByRole("heading").textContent).toBe("명단.xlsx");
    expect(screen.queryByText("파일을 읽는 중…")).toBeNull();
    expect(screen.getByRole("button", { name: "다른 파일 선택" })).toBeTruthy();
  });

  it("asks and starts in the person's currency when the call named none: won for a Korean host", async () => {
    mount({ locale: "ko-KR", toolOutput: { ...REQUEST, budgetPerPerson: 50_000 } });
    expect(await screen.findByText(/₩50,000/)).toBeTruthy();
    await choose(staffFile());
    await screen.findByText("staff.csv", {}, SLOW);
    expect(fake.argsOf(FILE_TOOL.preview).at(-1)?.reading).toMatchObject({ currency: "KRW" });
    await userEvent.click(screen.getByRole("button", { name: "시작" }));
    await waitFor(() => expect(fake.argsOf(TOOL.startBulk)).toHaveLength(1));
    expect(fake.argsOf(TOOL.startBulk)[0]).toMatchObject({ budgetPerPerson: 50_000, currency: "KRW", locale: "ko-KR" });
  });

  it("starts in the host's language when the host says one, over the model's locale", async () => {
    mount({ locale: "ko-KR", toolOutput: { ...REQUEST, locale: "en" } });
    await choose(staffFile());
    await screen.findByText("staff.csv", {}, SLOW);
    await userEvent.click(screen.getByRole("button", { name: "시작" }));
    await waitFor(() => expect(fake.argsOf(TOOL.startBulk)).toHaveLength(1));
    expect(fake.argsOf(TOOL.startBulk)[0]).toMatchObject({ uploadId: "up-1", locale: "ko-KR" });
  });

  it("shows namesakes kept apart, merges them on request and starts with that reading", async () => {
    const namesakes = (reading: Reading, name: string): StaffPreview => {
      const merged = reading.mergeDuplicates === true;
      return {
        ...samplePreview(reading, name),
        people: merged ? 1 : 2,
        possibleDuplicates: merged ? [] : [{ rows: [2, 3], name: "김민준", department: "개발팀" }],
        possibleDuplicateCount: merged ? 0 : 1,
      };
    };
    await preview({ files: { preview: namesakes } });
    expect(screen.getByText(/^1 name appears more than once in the same department/)).toBeTruthy();
    expect(screen.getByText("김민준 (개발팀): rows 2, 3")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Merge them" }));
    await waitFor(() =>
      expect(fake.argsOf(FILE_TOOL.preview).at(-1)?.reading).toEqual({ currency: "USD", mergeDuplicates: true }),
    );
    expect(await screen.findByText(/read as one person: the first row is kept/)).toBeTruthy();
    expect(screen.queryByText("김민준 (개발팀): rows 2, 3")).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Start" }));
    await waitFor(() => expect(fake.argsOf(TOOL.startBulk)).toHaveLength(1));
    expect(fake.argsOf(TOOL.startBulk)[0]).toMatchObject({ reading: { mergeDuplicates: true } });
  });

  it("says so in Korean, and keeps them apart again on request", async () => {
    const namesakes = (reading: Reading, name: string): StaffPreview => ({
      ...samplePreview(reading, name),
      possibleDuplicates: reading.mergeDuplicates ? [] : [{ rows: [2, 3], name: "김민준", department: "개발팀" }],
      possibleDuplicateCount: reading.mergeDuplicates ? 0 : 1,
    });
    await preview({ locale: "ko-KR", files: { preview: namesakes } });
    expect(screen.getByText(/같은 이름이 다른 내용으로 여러 번 나오는 경우가 1건/)).toBeTruthy();
    expect(screen.getByText("김민준 (개발팀): 2, 3행")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "한 사람으로 합치기" }));
    await userEvent.click(await screen.findByRole("button", { name: "다른 사람으로 두기" }));
    await waitFor(() =>
      expect(fake.argsOf(FILE_TOOL.preview).at(-1)?.reading).toEqual({ currency: "KRW", mergeDuplicates: false }),
    );
    expect(await screen.findByText("김민준 (개발팀): 2, 3행")).toBeTruthy();
  });

  /** A preview in won where a dozen people's budgets buy nothing (dollars typed into a won list). */
  const lowBudgets = (reading: Reading, name: string): StaffPreview => ({
    ...samplePreview(reading, name),
    currency: "KRW",
    lowBudgets: { count: 12, rows: [2, 4, 5, 7, 8, 9, 11, 12, 13, 15], cheapest: 6_500 },
  });

  it("says who has a budget under the cheapest gift, and still lets the person start", async () => {
    await preview({ files: { preview: lowBudgets } });
    expect(
      screen.getByText(
        "The cheapest gift costs ₩6,500. Are the budgets in KRW? 12 get none: rows 2, 4, 5, 7, 8, 9, 11, 12, 13, 15, ….",
      ),
    ).toBeTruthy();
    expect(screen.getByRole("button", { name: "Start" }).hasAttribute("disabled")).toBe(false);
  });

  it("names every such row when they are all listed, with no ellipsis", async () => {
    const two = (reading: Reading, name: string): StaffPreview => ({
      ...lowBudgets(reading, name),
      lowBudgets: { count: 2, rows: [2, 5], cheapest: 6_500 },
    });
    await preview({ files: { preview: two } });
    expect(
      screen.getByText("The cheapest gift costs ₩6,500. Are the budgets in KRW? 2 get none: rows 2, 5."),
    ).toBeTruthy();
  });

  it("speaks of one person in the singular", async () => {
    const one = (reading: Reading, name: string): StaffPreview => ({
      ...lowBudgets(reading, name),
      lowBudgets: { count: 1, rows: [5], cheapest: 6_500 },
    });
    await preview({ files: { preview: one } });
    expect(
      screen.getByText("The cheapest gift costs ₩6,500. Are the budgets in KRW? 1 person gets none: row 5."),
    ).toBeTruthy();
  });

  it("says so in Korean", async () => {
    await preview({ locale: "ko-KR", files: { preview: lowBudgets } });
    expect(
      screen.getByText(
        "가장 싼 선물이 ₩6,500입니다. 예산이 KRW 금액인가요? 12명은 받지 못합니다: 2, 4, 5, 7, 8, 9, 11, 12, 13, 15, …행.",
      ),
    ).toBeTruthy();
  });

  it("goes back to the picker on Choose another file, and drops the upload", async () => {
    await preview();
    await userEvent.click(screen.getByRole("button", { name: "Choose another file" }));
    expect(screen.getByText("Choose a file or drop it here")).toBeTruthy();
    await waitFor(() => expect(fake.argsOf(FILE_TOOL.dropUpload)).toEqual([{ uploadId: "up-1" }]));
    expect(fake.assembled("up-1")).toBeNull();
  });
});
