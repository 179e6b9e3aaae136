import { isAllowedHost, isAllowedOrigin, isLoopback, parseHosts, parseOrigins } from "./origin.js";

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

describe("isAllowedHost", () => {
  const allowed = new Set(parseHosts("gifts.example.com, Tunnel.Example:8443"));

  it("answers to loopback names on any port, and to the configured names", () => {
    for (const host of ["127.0.0.1:8787", "localhost", "LOCALHOST:1", "[::1]:8787"]) {
      expect(isAllowedHost(host, allowed), host).toBe(true);
      expect(isAllowedHost(host, new Set()), host).toBe(true);
    }
    expect(isAllowedHost("gifts.example.com", allowed)).toBe(true);
    expect(isAllowedHost("tunnel.example:443", allowed)).toBe(true);
  });

  it("refuses any other name, as a DNS-rebinding page would send, and a missing or broken Host", () => {
    for (const host of ["evil.example:8787", "gifts.example.com.evil.example", "127.0.0.2:8787", "", null, "a b"]) {
      expect(isAllowedHost(host, allowed), String(host)).toBe(false);
    }
    expect(isAllowedHost("evil.example", "any")).toBe(true);
  });
});

describe("isLoopback", () => {
  it("knows the loopback names a server may be bound to", () => {
    for (const host of ["127.0.0.1", "localhost", "::1", "[::1]"]) expect(isLoopback(host), host).toBe(true);
    for (const host of ["0.0.0.0", "::", "192.168.1.2"]) expect(isLoopback(host), host).toBe(false);
  });
});
