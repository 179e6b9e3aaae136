import { CancelJobOutput } from "../../shared/tools.js";
import { readToolReply } from "./tool-reply.js";

const value = { jobId: "job-1", status: "canceled", changed: true };

describe("readToolReply", () => {
  it("reads a full tool result's structuredContent", () => {
    expect(
      readToolReply(
        { structuredContent: value, content: [{ type: "text", text: "ok" }], isError: false },
        CancelJobOutput,
      ),
    ).toEqual({ ok: true, value });
  });

  it("reads the older { result } form holding JSON", () => {
    expect(readToolReply({ result: JSON.stringify(value) }, CancelJobOutput)).toEqual({ ok: true, value });
  });

  it("reads a { result } whose JSON is itself a full tool result", () => {
    expect(
      readToolReply({ result: JSON.stringify({ structuredContent: value, isError: false }) }, CancelJobOutput),
    ).toEqual({ ok: true, value });
  });

  it("falls back to JSON in the text content when structuredContent is absent", () => {
    expect(readToolReply({ content: [{ type: "text", text: JSON.stringify(value) }] }, CancelJobOutput)).toEqual({
      ok: true,
      value,
    });
  });

  it("returns the domain error of an isError result, with its hint", () => {
    const raw = {
      isError: true,
      structuredContent: { error: { code: "unknown_job", message: "No job 9.", hint: "Start one." } },
      content: [{ type: "text", text: "No job 9." }],
    };
    expect(readToolReply(raw, CancelJobOutput)).toEqual({
      ok: false,
      error: { code: "unknown_job", message: "No job 9.", hint: "Start one.", transient: false },
    });
  });

  it("reads the server's error whatever isError says, as MCPJam hands every reply over with isError false", () => {
    const error = { code: "input_too_large", message: "staff.xlsx is 9.1 MB; the limit is 8.0 MB." };
    const expected = { ok: false, error: { ...error, transient: false } };
    const text = [{ type: "text", text: error.message }];
    expect(readToolReply({ isError: false, structuredContent: { error }, content: text }, CancelJobOutput)).toEqual(
      expected,
    );
    // and in the older shape, the JSON in a string
    expect(readToolReply({ result: JSON.stringify({ error }) }, CancelJobOutput)).toEqual(expected);
  });

  it("marks interrupted and internal failures as worth retrying", () => {
    const raw = { isError: true, structuredContent: { error: { code: "interrupted", message: "Server restarted." } } };
    expect(readToolReply(raw, CancelJobOutput)).toMatchObject({
      ok: false,
      error: { code: "interrupted", transient: true },
    });
  });

  it("shows the text content when an isError result carries no structured error", () => {
    const raw = { isError: true, content: [{ type: "text", text: "Rate limited, slow down." }] };
    expect(readToolReply(raw, CancelJobOutput)).toMatchObject({
      ok: false,
      error: { message: "Rate limited, slow down." },
    });
  });

  it("keeps a plain-text { result } as the message of a bad_reply", () => {
    expect(readToolReply({ result: "Tool call timed out" }, CancelJobOutput)).toEqual({
      ok: false,
      error: { code: "bad_reply", message: "Tool call timed out", transient: true },
    });
  });

  it("rejects structured content that breaks the schema, never casting it", () => {
    expect(readToolReply({ structuredContent: { jobId: 1 } }, CancelJobOutput)).toMatchObject({
      ok: false,
      error: { code: "bad_reply" },
    });
    expect(readToolReply(undefined, CancelJobOutput)).toMatchObject({ ok: false, error: { code: "bad_reply" } });
  });
});
