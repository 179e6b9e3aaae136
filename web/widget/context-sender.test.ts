/**
 * The model context's sender: a change is sent at once when the window is open, changes inside
 * the window are coalesced into the latest, a key already sent is not sent again, and `flush`
 * sends what waits at once.
 */
import type { ModelContext } from "./host.js";
import { createContextSender } from "./conversation.js";

const context = (text: string): ModelContext => ({ text, structured: { text } });

function sender() {
  const sent: string[] = [];
  const made: string[] = [];
  const s = createContextSender(
    async (c) => {
      sent.push(c.text);
    },
    { intervalMs: 3_000 },
  );
  const offer = (key: string, text = key) =>
    s.offer(key, () => {
      made.push(text);
      return context(text);
    });
  return { s, sent, made, offer };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("createContextSender", () => {
  it("sends a change at once, then at most once every interval, the latest of what came in between", () => {
    const { sent, made, offer } = sender();
    offer("running|parse");
    expect(sent).toEqual(["running|parse"]);
    vi.advanceTimersByTime(1_000);
    offer("running|match");
    offer("running|compose");
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(1_999);
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(["running|parse", "running|compose"]);
    // only what was sent was made
    expect(made).toEqual(sent);
    vi.advanceTimersByTime(10_000);
    expect(sent).toHaveLength(2);
  });

  it("does not send a key again", () => {
    const { sent, offer } = sender();
    offer("running|match", "42 %");
    vi.advanceTimersByTime(5_000);
    offer("running|match", "43 %");
    vi.advanceTimersByTime(5_000);
    expect(sent).toEqual(["42 %"]);
  });

  it("flushes what waits at once, and resolves once the host has it", async () => {
    const { s, sent, offer } = sender();
    offer("running|match");
    offer("completed|figures");
    expect(sent).toEqual(["running|match"]);
    await s.flush();
    expect(sent).toEqual(["running|match", "completed|figures"]);
    vi.advanceTimersByTime(10_000);
    expect(sent).toHaveLength(2);
  });

  it("sends nothing once stopped", () => {
    const { s, sent, offer } = sender();
    offer("running|parse");
    offer("running|match");
    s.stop();
    vi.advanceTimersByTime(10_000);
    expect(sent).toEqual(["running|parse"]);
  });
});
