/**
 * Reading a file's bytes through once for the tool: the size always, the bytes only under the
 * inline cap.
 */
import { measureFile } from "./export-file.js";

async function* pieces(...sizes: number[]) {
  for (const size of sizes) yield new Uint8Array(size).fill(size);
}

describe("measureFile", () => {
  it("counts every byte and keeps them while they fit", async () => {
    const kept = await measureFile(pieces(3, 4), 7);
    expect(kept.size).toBe(7);
    expect([...(kept.bytes ?? [])]).toEqual([3, 3, 3, 4, 4, 4, 4]);
  });

  it("keeps nothing past the cap, or when asked for no bytes, and still counts them all", async () => {
    expect(await measureFile(pieces(3, 4, 5), 7)).toEqual({ size: 12 });
    expect(await measureFile(pieces(3), 0)).toEqual({ size: 3 });
  });
});
