import { isAllowedOrigin, parseOrigins } from "./origin.js";

describe("isAllowedOrigin", () => {
  const allowed = new Set(["https://harness.example"]);

  it("lets requests without an Origin through: they do not come from a web page", () => {
    expect(isAllowedOrigin(null, "127.0.0.1:8787", allowed)).toBe(true);
    expect(isAllowedOrigin(undefined, "127.0.0.1:8787", allowed)).toBe(true);
  });

  it("allows configured origins and the server's own loopback origin", () => {
    expect(isAllowedOrigin("https://harness.example", "tunnel.example", allowed)).toBe(true);
    expect(isAllowedOrigin("http://127.0.0.1:8787", "127.0.0.1:8787", allowed)).toBe(true);
    expect(isAllowedOrigin("http://localhost:8787", "localhost:8787", allowed)).toBe(true);
    expect(isAllowedOrigin("http://[::1]:8787", "[::1]:8787", allowed)).toBe(true);
  });

  it("refuses other origins, including a rebinding page whose name points at this host", () => {
    expect(isAllowedOrigin("https://evil.example", "127.0.0.1:8787", allowed)).toBe(false);
    expect(isAllowedOrigin("http://evil.example:8787", "evil.example:8787", allowed)).toBe(false);
    expect(isAllowedOrigin("http://localhost:5173", "localhost:8787", allowed)).toBe(false);
    expect(isAllowedOrigin("null", "127.0.0.1:8787", allowed)).toBe(false);
  });
});

describe("parseOrigins", () => {
  it("splits a comma-separated list and drops trailing slashes and blanks", () => {
    expect(parseOrigins(" https://a.example/, http://localhost:5173 ,,")).toEqual([
      "https://a.example",
      "http://localhost:5173",
    ]);
    expect(parseOrigins(undefined)).toEqual([]);
  });
});
