/**
 * The staff-file flow's store: each step follows from the one before, and a reply that comes
 * back for a file or a reading no longer current (the person chose again meanwhile) changes nothing.
 */
import type { Reading } from "../../shared/files.js";
import { samplePreview } from "../../test-kit/widget/fake-host.js";
import { createFileFlow, type FileFlowState } from "./file-flow.js";

const file = (name: string) => ({ name }) as File;
const failure = { code: "unreachable", message: "lost", transient: true };
const PICK: FileFlowState = { step: "pick", refused: null, error: null };

describe("the file flow", () => {
  it("goes from the picker through the upload to a preview, and back to the picker", () => {
    const store = createFileFlow();
    const flow = store.getState();
    const a = file("a.csv");
    flow.upload(a);
    flow.uploading(a, { uploadId: "up-1" });
    flow.uploading(a, { received: 1, chunks: 4, error: null });
    expect(store.getState().flow).toEqual({
      step: "upload",
      file: a,
      uploadId: "up-1",
      received: 1,
      chunks: 4,
      error: null,
    });
    flow.uploaded(a, "up-1");
    expect(store.getState().flow).toEqual({
      step: "preview",
      uploadId: "up-1",
      fileName: "a.csv",
      reading: {},
      preview: null,
      busy: true,
      error: null,
    });
    flow.pick();
    expect(store.getState().flow).toEqual(PICK);
  });

  it("ignores what comes back for a file no longer being sent", () => {
    const store = createFileFlow();
    const flow = store.getState();
    const [a, b] = [file("a.csv"), file("b.csv")];
    const picking = store.getState().flow;
    flow.uploaded(a, "up-a");
    expect(store.getState().flow).toBe(picking);
    flow.upload(a);
    flow.upload(b);
    const sending = store.getState().flow;
    flow.uploading(a, { received: 3, chunks: 4, error: null });
    expect(store.getState().flow).toBe(sending);
    flow.uploading(a, { uploadId: "up-a" });
    expect(store.getState().flow).toBe(sending);
    flow.uploading(a, { error: failure });
    expect(store.getState().flow).toBe(sending);
    flow.uploaded(a, "up-a");
    expect(store.getState().flow).toBe(sending);
  });

  it("shows the preview of the latest reading only, whatever order the replies come in", () => {
    const store = createFileFlow();
    const flow = store.getState();
    const a = file("a.csv");
    flow.upload(a);
    flow.uploaded(a, "u");
    const first: Reading = { encoding: "utf-8" };
    const second: Reading = { encoding: "euc-kr" };
    flow.read(first);
    flow.read(second);
    const asked = store.getState().flow;
    flow.previewed(first, { preview: samplePreview(first, "a.csv") });
    expect(store.getState().flow).toBe(asked);
    flow.previewed(first, { error: failure });
    expect(store.getState().flow).toBe(asked);
    flow.previewed(second, { preview: samplePreview(second, "a.csv") });
    expect(store.getState().flow).toMatchObject({
      step: "preview",
      reading: second,
      busy: false,
      preview: { encoding: "euc-kr" },
    });
  });
});
