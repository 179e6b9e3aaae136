/**
 * The development file service on its own, with an injected clock: a file posted is served at the
 * download_url it answers (whose origin it remembers) for an hour and then not; the oldest files
 * make room for new ones past the count or the bytes allowed; an empty or too large body is refused.
 */
import { FILE_LIMITS } from "../shared/files.js";
import { createDevFiles, socketOrigin } from "./dev-files.js";

const HOUR = 60 * 60 * 1000;
const post = (body: Uint8Array<ArrayBuffer>, name = "팀 명단.csv") =>
  new Request("http://127.0.0.1:8787/dev/files", {
    method: "POST",
    body,
    headers: { "x-file-name": encodeURIComponent(name), "content-type": "text/csv" },
  });
const OWN = "http://127.0.0.1:8787";
const bytes = (text: string) => new Uint8Array(new TextEncoder().encode(text));
async function attach(files: ReturnType<typeof createDevFiles>, text: string) {
  const answer = await files.handle(post(bytes(text)), OWN);
  expect(answer.status).toBe(200);
  return (await answer.json()) as { download_url: string; file_id: string; file_name: string; mime_type: string };
}

it("serves a posted file at its download_url for an hour, and remembers the origin it was reached at", async () => {
  let clock = 0;
  const files = createDevFiles({ now: () => clock });
  const file = await attach(files, "name\nAda\n");
  expect(file).toMatchObject({ file_name: "팀 명단.csv", mime_type: "text/csv" });
  expect(file.download_url).toBe(`http://127.0.0.1:8787/dev/files/${file.file_id}`);
  expect([...files.origins]).toEqual(["http://127.0.0.1:8787"]);
  const served = await files.handle(new Request(file.download_url), OWN);
  expect(served.headers.get("content-type")).toBe("text/csv");
  expect(await served.text()).toBe("name\nAda\n");
  clock += HOUR;
  expect((await files.handle(new Request(file.download_url), OWN)).status).toBe(404);
});

it("makes room by dropping the oldest files, past the count or the bytes allowed", async () => {
  const files = createDevFiles({ maxFiles: 2, maxTotalBytes: 10 });
  const [a, b] = [await attach(files, "aaaa"), await attach(files, "bbbb")];
  const c = await attach(files, "cccc");
  expect((await files.handle(new Request(a.download_url), OWN)).status).toBe(404);
  expect((await files.handle(new Request(b.download_url), OWN)).status).toBe(200);
  await attach(files, "dddddddd"); // 4 + 8 > 10: c goes too
  expect((await files.handle(new Request(c.download_url), OWN)).status).toBe(404);
});

it("refuses an empty body and one past twice the staff file limit", async () => {
  const files = createDevFiles();
  expect((await files.handle(post(new Uint8Array(0)), OWN)).status).toBe(400);
  expect((await files.handle(post(new Uint8Array(2 * FILE_LIMITS.maxFileBytes + 1)), OWN)).status).toBe(413);
  expect((await files.handle(new Request("http://127.0.0.1:8787/dev/files/../../etc"), OWN)).status).toBe(404);
});

it("answers on the origin of the socket the post arrived at, never the one its Host header names", async () => {
  const files = createDevFiles();
  const forged = new Request("http://127.0.0.1:6379/dev/files", { method: "POST", body: bytes("name\nAda\n") });
  const answer = (await (await files.handle(forged, OWN)).json()) as { download_url: string };
  expect(new URL(answer.download_url).origin).toBe(OWN);
  expect([...files.origins]).toEqual([OWN]);
  const unknown = await files.handle(post(bytes("name\nAda\n")), undefined);
  expect(unknown.status).toBe(500);
  expect([...files.origins]).toEqual([OWN]);
  expect(socketOrigin({ localAddress: "::ffff:127.0.0.1", localPort: 8787 })).toBe(OWN);
  expect(socketOrigin({ localAddress: "::1", localPort: 80 })).toBe("http://[::1]");
  expect(socketOrigin(undefined)).toBeUndefined();
});
