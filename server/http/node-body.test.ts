/**
 * The body reader holds what was sent, byte for byte, whether its length was declared (one buffer
 * of its own, ready to hand to the JSON worker) or it came chunked, and stops keeping it past the
 * limit.
 */
import { PassThrough } from "node:stream";
import { readNodeBody } from "./node-body.js";

function incoming(chunks: string[], declared?: number) {
  const stream = Object.assign(new PassThrough(), {
    headers: declared === undefined ? {} : { "content-length": String(declared) },
  });
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  return stream;
}

const text = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString("utf8") : undefined);
const chunks = Array.from({ length: 50 }, (_, i) => `{"n":${i},"s":"${"한글".repeat(i)}"}`);
const sent = chunks.join("");

describe("readNodeBody", () => {
  it("reads a body of declared length into one buffer of its own", async () => {
    const bytes = await readNodeBody(incoming(chunks, Buffer.byteLength(sent)), 1e6);
    expect(text(bytes)).toBe(sent);
    expect(bytes?.byteOffset).toBe(0);
    expect(bytes?.buffer.byteLength).toBe(Buffer.byteLength(sent));
  });

  it("reads a chunked body (no length declared) as it came", async () => {
    expect(text(await readNodeBody(incoming(chunks), 1e6))).toBe(sent);
  });

  it("keeps nothing past the limit, declared or not", async () => {
    const limit = Buffer.byteLength(sent) - 1;
    expect(await readNodeBody(incoming(chunks, Buffer.byteLength(sent)), limit)).toBeUndefined();
    expect(await readNodeBody(incoming(chunks), limit)).toBeUndefined();
  });
});
