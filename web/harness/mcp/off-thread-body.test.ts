import { offThreadBodyFetch } from "./off-thread-body.js";

/** Runs the worker's source as a worker would, on this thread, answering in a later task. */
class FakeWorker {
  static made = 0;
  static fail = false;
  onmessage: ((e: MessageEvent) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  constructor(readonly url: string) {
    FakeWorker.made++;
  }
  postMessage(data: { id: number; text: string; type: string }) {
    setTimeout(() => {
      if (FakeWorker.fail) this.onerror?.({} as ErrorEvent);
      else
        this.onmessage?.({ data: { id: data.id, blob: new Blob([data.text], { type: data.type }) } } as MessageEvent);
    }, 0);
  }
  terminate() {}
}

function recorder() {
  const seen: RequestInit[] = [];
  const inner = async (_url: string | URL, init?: RequestInit) => {
    seen.push(init ?? {});
    return new Response("{}");
  };
  return { seen, inner };
}

const large = JSON.stringify({ csv: "Zoë,김민준\n".repeat(40_000) });

describe("offThreadBodyFetch", () => {
  beforeEach(() => {
    FakeWorker.made = 0;
    FakeWorker.fail = false;
    vi.stubGlobal("Worker", FakeWorker);
  });
  afterEach(() => vi.unstubAllGlobals());

  it("passes small bodies and requests without a body through as they are", async () => {
    const { seen, inner } = recorder();
    const f = offThreadBodyFetch(inner);
    await f("http://x/mcp", { method: "POST", body: '{"jsonrpc":"2.0"}' });
    await f("http://x/mcp", { method: "GET" });
    expect(seen.map((i) => i.body)).toEqual(['{"jsonrpc":"2.0"}', undefined]);
    expect(FakeWorker.made).toBe(0);
  });

  it("sends a large body as a Blob made in the worker, with the same bytes and content type", async () => {
    const { seen, inner } = recorder();
    const f = offThreadBodyFetch(inner);
    const headers = new Headers({ "content-type": "application/json", accept: "text/event-stream" });
    await f("http://x/mcp", { method: "POST", headers, body: large });
    await f("http://x/mcp", { method: "POST", headers, body: large });
    expect(FakeWorker.made).toBe(1);
    for (const init of seen) {
      expect(init.body).toBeInstanceOf(Blob);
      expect(await (init.body as Blob).text()).toBe(large);
      expect((init.body as Blob).type).toBe("application/json");
      expect(init.headers).toBe(headers);
      expect(init.method).toBe("POST");
    }
  });

  it("sends the string itself when the worker fails, or when there are no workers", async () => {
    const { seen, inner } = recorder();
    FakeWorker.fail = true;
    await offThreadBodyFetch(inner)("http://x/mcp", { method: "POST", body: large });
    vi.stubGlobal("Worker", undefined);
    await offThreadBodyFetch(inner)("http://x/mcp", { method: "POST", body: large });
    expect(seen.map((i) => i.body)).toEqual([large, large]);
  });
});
