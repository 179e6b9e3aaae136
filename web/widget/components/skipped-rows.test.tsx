// @vitest-environment jsdom
/**
 * Skipped rows as HR reads them: the row, the name and department the row held where it held
 * them, and why; in Korean with the row in Korean words.
 */
import { cleanup, render, screen } from "@testing-library/react";
import type { SkippedRow } from "../../../shared/files.js";
import { createHost, HostContext } from "../host-context.js";
import type { Host } from "../host.js";
import { installFakeHost, type FakeHost } from "../../../test-kit/widget/fake-host.js";
import { SkippedRows } from "./skipped-rows.js";

let fake: FakeHost | undefined;
let host: Host | undefined;
afterEach(() => {
  cleanup();
  host?.dispose();
  fake?.uninstall();
  fake = host = undefined;
});

function lines(rows: SkippedRow[], locale: string) {
  fake = installFakeHost({ locale });
  host = createHost();
  render(
    <HostContext.Provider value={host}>
      <SkippedRows rows={rows} />
    </HostContext.Provider>,
  );
  return screen.getAllByRole("listitem").map((li) => li.textContent);
}

describe("SkippedRows", () => {
  it("names the person and department of each row where it held them", () => {
    const rows: SkippedRow[] = [
      {
        row: 3,
        name: "이도윤",
        department: "개발팀",
        reason: "예산 $40은(는) USD 금액인데, 이 작업의 예산 통화는 KRW입니다",
      },
      { row: 5, department: "디자인팀", reason: "이름이 없습니다" },
      { row: 9, reason: "빈 행입니다" },
    ];
    const shown = lines(rows, "ko-KR");
    expect(shown[0]).toMatch(/^\S*3\S* · 이도윤 · 개발팀: 예산 \$40은\(는\) USD 금액인데/);
    expect(shown[1]).toMatch(/^\S*5\S* · 디자인팀: 이름이 없습니다$/);
    expect(shown[2]).toMatch(/^\S*9\S*: 빈 행입니다$/);
  });
});
