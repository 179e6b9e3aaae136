// @vitest-environment jsdom
import { fileNameOf, openLink, saveDownloadItem } from "./save-file.js";

describe("saving what the widget hands the host", () => {
  let clicked: { href: string; download: string }[];
  let blobs: Blob[];
  beforeEach(() => {
    clicked = [];
    blobs = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    URL.createObjectURL = (blob: Blob) => (blobs.push(blob), `blob:test/${blobs.length}`);
    URL.revokeObjectURL = () => {};
  });
  afterEach(() => vi.restoreAllMocks());

  it("names a file by its URI's last segment, or by its type when that has no extension", () => {
    expect(fileNameOf("https://x.example/files/a/%EC%84%A0%EB%AC%BC.xlsx?sig=1")).toBe("선물.xlsx");
    expect(fileNameOf("https://x.example/files/tok3n", "text/csv; charset=utf-8")).toBe("giftgenius-export.csv");
    expect(fileNameOf("not a url", "application/zip")).toBe("giftgenius-export.bin");
  });

  it("saves an embedded resource's bytes as a Blob through <a download>", async () => {
    const saved = saveDownloadItem(window, {
      type: "resource",
      resource: { uri: "https://x.example/files/t", mimeType: "text/csv", blob: btoa("name,gift\n") },
    });
    expect(saved).toEqual({ saved: "giftgenius-export.csv", mimeType: "text/csv", bytes: 10 });
    expect(clicked).toEqual([{ href: "blob:test/1", download: "giftgenius-export.csv" }]);
    const text = await new Promise((resolve) => {
      const reader = new FileReader(); // jsdom's Blob has no text()
      reader.onload = () => resolve(reader.result);
      reader.readAsText(blobs[0]);
    });
    expect(text).toBe("name,gift\n");
  });

  it("downloads a link on its own origin, opens another, and refuses what is not a web link", () => {
    const opened: unknown[] = [];
    vi.spyOn(window, "open").mockImplementation((...args) => (opened.push(args), null));
    expect(openLink(window, `${location.origin}/files/abc`)).toEqual({ downloaded: `${location.origin}/files/abc` });
    expect(clicked).toEqual([{ href: `${location.origin}/files/abc`, download: "" }]);
    expect(saveDownloadItem(window, { type: "resource_link", uri: "https://x.example/f.csv", name: "f.csv" })).toEqual({
      opened: "https://x.example/f.csv",
    });
    expect(opened).toEqual([["https://x.example/f.csv", "_blank", "noopener,noreferrer"]]);
    expect(openLink(window, "javascript:alert(1)")).toEqual({ refused: "javascript:alert(1)" });
    expect(saveDownloadItem(window, { type: "text", text: "hi" })).toMatchObject({ refused: expect.any(String) });
  });
});
