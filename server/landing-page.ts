/**
 * What `/` answers when the harness is not served (production): a short page that says what this
 * server is and where its MCP endpoint is, for a person who opens its URL in a browser. It names
 * nothing of the deployment (no store, no settings, no versions of what it runs on).
 */
import { SERVER_INFO } from "./mcp/server.js";

/** Where a newcomer reads how to connect a host. */
const README = "README.md in the GiftGenius repository";

/** The page, its MCP endpoint given relative to the page (`/mcp`) so that it holds behind any proxy. */
export const landingPage = (): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${SERVER_INFO.title}</title>
</head>
<body>
<h1>${SERVER_INFO.title} ${SERVER_INFO.version}</h1>
<p>An MCP server that suggests gifts and runs long gift-analysis jobs for MCP Apps hosts.</p>
<p>MCP endpoint (Streamable HTTP): <code>/mcp</code> on this server.</p>
<p>How to connect ChatGPT, Claude, VS Code or another host: see ${README}.</p>
</body>
</html>
`;
