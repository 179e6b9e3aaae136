/**
 * The async context's slots: each keeps its value across awaits and timers within its run, and
 * setting one keeps the others as they were.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { contextSlot } from "./request-context.js";

describe("context slots", () => {
  const a = contextSlot<string>("request");
  const b = contextSlot<number>("trace");

  it("are empty outside their runs", () => {
    expect([a.get(), b.get()]).toEqual([undefined, undefined]);
  });

  it("keep each other's values when one is set inside the other, across awaits", async () => {
    const seen = await a.run("outer", () =>
      b.run(1, async () => {
        await sleep(1);
        const inner = await a.run("inner", async () => {
          await Promise.resolve();
          return [a.get(), b.get()];
        });
        return [inner, [a.get(), b.get()]];
      }),
    );
    expect(seen).toEqual([
      ["inner", 1],
      ["outer", 1],
    ]);
    expect([a.get(), b.get()]).toEqual([undefined, undefined]);
  });

  it("keep apart what runs side by side", async () => {
    const one = a.run("one", async () => (await sleep(5), a.get()));
    const two = a.run("two", async () => (await sleep(1), a.get()));
    expect(await Promise.all([one, two])).toEqual(["one", "two"]);
  });
});
