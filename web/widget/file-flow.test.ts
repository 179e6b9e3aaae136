/**
 * The staff-file flow's reducer: each step follows from the one before, and a reply that comes
 * back for a file or a reading no longer current (the person chose again meanwhile) changes nothing.
 */
import type { Reading } from "../../shared/files.js";
import { samplePreview } from "../../test-kit/widget/fake-host.js";
import { reduceFileFlow, type FileFlowState } from "./file-flow.js";

const file = (name: string) => ({ name }) as File;
const failure = { code: "unreachable", message: "lost", transient: true };
const PICK: FileFlowState = { step: "pick", refused: null, error: null };

describe("reduceFileFlow", () => {
  it("goes from the picker through the upload to a preview, and back to the picker", () => {
    const a = file("a.csv");
    let s = reduceFileFlow(PICK, { type: "upload", file: a });
    s = reduceFileFlow(s, { type: "begun", file: a, uploadId: "up-1" });
    s = reduceFileFlow(s, { type: "progress", file: a, received: 1, chunks: 4 });
    expect(s).toEqual({ step: "upload", file: a, uploadId: "up-1", received: 1, chunks: 4, error: null });
    s = reduceFileFlow(s, { type: "uploaded", file: a, uploadId: "up-1" });
    expect(s).toEqual({
      step: "preview",
      uploadId: "up-1",
      fileName: "a.csv",
      reading: {},
      preview: null,
      busy: true,
      error: null,
    });
    expect(reduceFileFlow(s, { type: "pick" })).toEqual(PICK);
  });

  it("ignores what comes back for a file no longer being sent", () => {
    const [a, b] = [file("a.csv"), file("b.csv")];
    const sending = reduceFileFlow(reduceFileFlow(PICK, { type: "upload", file: a }), { type: "upload", file: b });
    expect(reduceFileFlow(sending, { type: "progress", file: a, received: 3, chunks: 4 })).toBe(sending);
    expect(reduceFileFlow(sending, { type: "begun", file: a, uploadId: "up-a" })).toBe(sending);
    expect(reduceFileFlow(sending, { type: "uploadFailed", file: a, error: failure })).toBe(sending);
    expect(reduceFileFlow(sending, { type: "uploaded", file: a, uploadId: "up-a" })).toBe(sending);
    expect(reduceFileFlow(PICK, { type: "uploaded", file: a, uploadId: "up-a" })).toBe(PICK);
  });

  it("shows the preview of the latest reading only, whatever order the replies come in", () => {
    const a = file("a.csv");
    let s = reduceFileFlow(reduceFileFlow(PICK, { type: "upload", file: a }), {
      type: "uploaded",
      file: a,
      uploadId: "u",
    });
    const first: Reading = { encoding: "utf-8" };
    const second: Reading = { encoding: "euc-kr" };
    s = reduceFileFlow(reduceFileFlow(s, { type: "read", reading: first }), { type: "read", reading: second });
    const late = reduceFileFlow(s, { type: "previewed", reading: first, preview: samplePreview(first, "a.csv") });
    expect(late).toBe(s);
    expect(reduceFileFlow(s, { type: "failed", reading: first, error: failure })).toBe(s);
    const shown = reduceFileFlow(s, { type: "previewed", reading: second, preview: samplePreview(second, "a.csv") });
    expect(shown).toMatchObject({ step: "preview", reading: second, busy: false, preview: { encoding: "euc-kr" } });
  });
});
