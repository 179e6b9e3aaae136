import { handOverFile } from "./dev-files.js";

/** A fetch that records the request and answers `status` with `body` (JSON, or text when a string). */
function answering(status: number, body: unknown) {
  const seen: { url: string; init: RequestInit }[] = [];
  const fetcher = (async (url: URL, init: RequestInit) => {
    seen.push({ url: String(url), init });
    return new Response(typeof body === "string" ? body : JSON.stringify(body), { status });
  }) as typeof fetch;
  return { fetcher, seen };
}

describe("handing a file over as ChatGPT's file service would", () => {
  const file = new File(["이름\n김민준\n"], "직원 명단.csv", { type: "text/csv" });

  it("posts the bytes with the name percent-encoded and reads the file param back", async () => {
    const { fetcher, seen } = answering(200, {
      download_url: "http://127.0.0.1:1/dev/files/file-1",
      file_id: "file-1",
      file_name: "직원 명단.csv",
    });
    await expect(handOverFile("http://127.0.0.1:1", file, fetcher)).resolves.toEqual({
      download_url: "http://127.0.0.1:1/dev/files/file-1",
      file_id: "file-1",
      file_name: "직원 명단.csv",
    });
    expect(seen[0].url).toBe("http://127.0.0.1:1/dev/files");
    expect(seen[0].init.headers).toEqual({
      "x-file-name": "%EC%A7%81%EC%9B%90%20%EB%AA%85%EB%8B%A8.csv",
      "content-type": "text/csv",
    });
    expect(seen[0].init.body).toBe(file);
  });

  it("says what the server said when it refuses, and what to do when it has no file service", async () => {
    await expect(
      handOverFile("http://h", file, answering(413, { error: "too_large", message: "Too large." }).fetcher),
    ).rejects.toThrow("The file service refused 직원 명단.csv: Too large.");
    await expect(handOverFile("http://h", file, answering(404, "404 Not Found").fetcher)).rejects.toThrow(
      /GIFTGENIUS_DEV=1/,
    );
    await expect(handOverFile("http://h", file, answering(200, "<!doctype html>").fetcher)).rejects.toThrow(
      /GIFTGENIUS_DEV=1/,
    );
  });
});
