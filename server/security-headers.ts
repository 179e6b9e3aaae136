/**
 * Security headers for everything the app serves besides /mcp: the harness page and its files,
 * /healthz, the sign-in metadata. The harness may only load and call this server, may not be
 * framed by another site, and sends no referrer. Its widget runs in a sandboxed `srcdoc` frame,
 * which inherits this policy: hence inline scripts and styles (the widget is one inlined HTML
 * file), blob: workers (the harness parses large bodies off the main thread) and eval (the MCP
 * client in the harness compiles tools' output schemas into validator functions).
 */
import { secureHeaders } from "hono/secure-headers";

const HARNESS_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", "'unsafe-inline'", "'unsafe-eval'", "blob:"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", "data:", "blob:"],
  fontSrc: ["'self'", "data:"],
  connectSrc: ["'self'"],
  workerSrc: ["'self'", "blob:"],
  frameSrc: ["'self'", "blob:", "data:"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** The middleware: CSP, nosniff, no referrer, no framing by other sites; HSTS is left to the proxy. */
export const securityHeaders = () =>
  secureHeaders({
    contentSecurityPolicy: HARNESS_CSP,
    referrerPolicy: "no-referrer",
    xFrameOptions: "DENY",
    strictTransportSecurity: false,
  });
