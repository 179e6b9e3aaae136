// @vitest-environment jsdom
/**
 * What the card keeps: in localStorage where the frame has it, in memory where touching it throws
 * (a sandboxed frame without its own origin).
 */
import { keep, readKept } from "./view-state.js";

afterEach(() => localStorage.clear());

describe("kept", () => {
  it("keeps a string in localStorage, where a later page finds it", () => {
    keep("gg-test:a", "on");
    expect(localStorage.getItem("gg-test:a")).toBe("on");
    expect(readKept("gg-test:a")).toBe("on");
    localStorage.setItem("gg-test:earlier", "off");
    expect(readKept("gg-test:earlier")).toBe("off");
    expect(readKept("gg-test:never")).toBeNull();
  });

  it("keeps it in memory where the frame has no storage", () => {
    const own = Object.getOwnPropertyDescriptor(globalThis, "localStorage");
    Object.defineProperty(globalThis, "localStorage", {
      configurable: true,
      get() {
        throw new DOMException("The document is sandboxed and lacks the 'allow-same-origin' flag.", "SecurityError");
      },
    });
    try {
      expect(() => localStorage).toThrow();
      expect(readKept("gg-test:b")).toBeNull();
      keep("gg-test:b", "off");
      expect(readKept("gg-test:b")).toBe("off");
    } finally {
      if (own) Object.defineProperty(globalThis, "localStorage", own);
      else Reflect.deleteProperty(globalThis, "localStorage");
    }
    expect(localStorage.getItem("gg-test:b")).toBeNull();
  });
});
