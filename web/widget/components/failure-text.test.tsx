// @vitest-environment jsdom
/**
 * A failure as a person reads it: a hint written for the model (it names a tool) is left out, the
 * widget's own failures and, in Korean, a server's English message come in the widget's words.
 */
import { cleanup, render, screen } from "@testing-library/react";
import { installFakeHost, type FakeHost } from "../../../test-kit/widget/fake-host.js";
import { createHost, HostContext } from "../host-context.js";
import type { Host } from "../host.js";
import { FailureText, type FailureTextProps } from "./failure-text.js";

let fake: FakeHost | undefined;
let host: Host | undefined;
afterEach(() => {
  cleanup();
  host?.dispose();
  fake?.uninstall();
  fake = host = undefined;
});

function show(error: FailureTextProps["error"], locale = "en-US") {
  fake = installFakeHost({ locale });
  host = createHost();
  render(
    <HostContext.Provider value={host}>
      <FailureText error={error} />
    </HostContext.Provider>,
  );
  return screen.getByRole("alert").textContent;
}

describe("FailureText", () => {
  it("shows the server's message and a hint meant for people", () => {
    expect(
      show({ code: "rate_limited", message: "Too many starts this hour.", hint: "Try again in 50 minutes." }),
    ).toBe("Too many starts this hour.Try again in 50 minutes.");
  });

  it("leaves out a hint that names a tool: it is the model's, and the widget has its own button", () => {
    const hint = "Run the analysis again with start_bulk_gift_analysis.";
    expect(show({ code: "interrupted", message: "The server restarted during the analysis.", hint })).toBe(
      "The server restarted during the analysis.",
    );
  });

  it("says the widget's own failures in its words, not the raw transport text", () => {
    expect(show({ code: "unreachable", message: "Network error: fetch failed (get_job_events)" })).toBe(
      "The host could not run the tool.",
    );
  });

  it("in Korean, words an English message by its code, and keeps a message already in Korean", () => {
    expect(show({ code: "interrupted", message: "The server restarted.", hint: "Try again soon." }, "ko-KR")).toBe(
      "서버가 다시 시작되면서 분석이 중단되었습니다.",
    );
    cleanup();
    host?.dispose();
    fake?.uninstall();
    expect(show({ code: "too_many_rows", message: "CSV의 행이 200,000개를 넘습니다." }, "ko-KR")).toBe(
      "CSV의 행이 200,000개를 넘습니다.",
    );
  });
});
