/**
 * For sign-in tests: a real OAuth 2.1 / OpenID provider (oidc-provider) on an ephemeral port, with
 * one registered public client, and `signIn`, which walks its PKCE authorization-code flow over
 * HTTP (dev login and consent pages, redirects and cookies by hand) to get an access token. `hang`
 * makes it (or only its keys) take requests and never answer; `startHungListener` is a provider that
 * accepts connections and never answers at all.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import { createServer as createTcpServer, type Socket } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";

const CLIENT_ID = "giftgenius-test";
const REDIRECT_URI = "http://127.0.0.1/callback";

export type TestProvider = {
  issuer: string;
  /**
   * Signs in as `account` (any name is an account) and returns a JWT access token for `resource`.
   * `ttlSeconds` shortens the token's life, for expiry tests; `claims` replaces claims of the signed
   * token (a claim set to undefined is left out), for tests of odd tokens the provider signs.
   */
  signIn(
    account: string,
    options: { resource: string; scope?: string; ttlSeconds?: number; claims?: Record<string, unknown> },
  ): Promise<string>;
  /** From now on, requests for everything, for its keys only (`/jwks`), or for nothing are held unanswered. */
  hang(part: "everything" | "keys" | "nothing"): void;
  close(): Promise<void>;
};

/** Starts the provider; every token is a JWT whose audience is the resource it was asked for. */
export async function startTestProvider(): Promise<TestProvider> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: "RS256", use: "sig", kid: "test" };
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const address = http.address();
  if (address === null || typeof address === "string") throw new Error("The provider has no TCP address");
  const issuer = `http://127.0.0.1:${address.port}`;
  // the next sign-in's token life and claims; sign-ins run one at a time
  let ttlSeconds = 300;
  let claims: Record<string, unknown> = {};

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        token_endpoint_auth_method: "none",
        redirect_uris: [REDIRECT_URI],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    jwks: { keys: [jwk] },
    formats: {
      customizers: {
        jwt: (_ctx, _token, jwt) => {
          for (const [name, value] of Object.entries(claims)) {
            if (value === undefined) delete jwt.payload[name];
            else jwt.payload[name] = value;
          }
        },
      },
    },
    ttl: {
      Interaction: 600,
      Session: 600,
      Grant: 600,
      IdToken: 600,
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 600,
    },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    features: {
      devInteractions: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => ({
          scope: "gifts extra",
          audience: resourceIndicator,
          accessTokenTTL: ttlSeconds,
          accessTokenFormat: "jwt",
        }),
      },
    },
  });
  const answer = provider.callback();
  let hung: "everything" | "keys" | "nothing" = "nothing";
  const held = new Set<ServerResponse>();
  http.on("request", (req, res) => {
    if (hung === "everything" || (hung === "keys" && req.url?.startsWith("/jwks"))) {
      held.add(res);
      res.on("close", () => held.delete(res));
      return;
    }
    void answer(req, res);
  });

  return {
    issuer,
    async signIn(account, { resource, scope = "gifts", ttlSeconds: ttl = 300, claims: replaced = {} }) {
      ttlSeconds = ttl;
      claims = replaced;
      const verifier = randomBytes(32).toString("base64url");
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      const authorize = new URL("/auth", issuer);
      authorize.search = new URLSearchParams({
        client_id: CLIENT_ID,
        response_type: "code",
        redirect_uri: REDIRECT_URI,
        scope: `openid ${scope}`,
        resource,
        state: randomBytes(8).toString("hex"),
        code_challenge: challenge,
        code_challenge_method: "S256",
      }).toString();
      const browser = createBrowser();
      let response = await browser.follow(authorize.href);
      // the dev login page, then the dev consent page, each a form posted back to the provider
      const forms: Record<string, string>[] = [
        { prompt: "login", login: account, password: "any" },
        { prompt: "consent" },
      ];
      for (const form of forms) {
        const action = /action="([^"]+)"/.exec(await response.text())?.[1];
        if (!action) throw new Error(`No ${form.prompt} form on the provider's page (${response.status})`);
        response = await browser.follow(new URL(action, issuer).href, new URLSearchParams(form));
      }
      const code = browser.callback?.searchParams.get("code");
      if (!code) throw new Error(`The provider did not redirect back with a code: ${browser.callback?.href}`);
      const token = await fetch(new URL("/token", issuer), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          redirect_uri: REDIRECT_URI,
          client_id: CLIENT_ID,
          code_verifier: verifier,
          resource,
        }),
      });
      const body = (await token.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`The token endpoint answered ${token.status}: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    hang(part) {
      hung = part;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        http.close(() => resolve());
      }),
  };
}

/** A TCP listener on 127.0.0.1 that accepts every connection and never writes a byte. */
export async function startHungListener(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Follows redirects by hand and keeps cookies, until a page or the client's redirect URI. */
function createBrowser() {
  const cookies = new Map<string, string>();
  const state: { callback?: URL; follow(url: string, form?: URLSearchParams): Promise<Response> } = {
    async follow(url, form) {
      let next: string | undefined = url;
      let body = form;
      for (let hops = 0; next !== undefined && hops < 20; hops++) {
        if (next.startsWith(REDIRECT_URI)) {
          state.callback = new URL(next);
          return new Response(null);
        }
        const response: Response = await fetch(next, {
          method: body ? "POST" : "GET",
          redirect: "manual",
          headers: {
            cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; "),
            ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
          },
          body,
        });
        for (const line of response.headers.getSetCookie()) {
          const [pair] = line.split(";");
          const eq = pair.indexOf("=");
          cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
        }
        const location = response.headers.get("location");
        if (response.status < 300 || response.status >= 400 || !location) return response;
        await response.body?.cancel();
        next = new URL(location, next).href;
        body = undefined;
      }
      throw new Error(`Too many redirects from ${url}`);
    },
  };
  return state;
}
