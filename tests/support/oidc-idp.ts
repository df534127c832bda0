import { generateKeyPairSync } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";

/**
 * A real OpenID Connect provider for tests: `oidc-provider` (a certified implementation, the core's
 * dev dependency) on 127.0.0.1, with the clients a test registers and an interaction that signs the
 * chosen account in and grants consent without a page.
 *
 *   const idp = await startOidcIdp({ clients: [{ clientId, clientSecret, redirectUri }] });
 *   idp.setAccount("ada", { email: "ada@acme.test", email_verified: true, name: "Ada" });
 *   const callbackURL = await idp.signIn(authorizationURL, "ada"); // where the IdP sends the browser
 *   await idp.close();
 */

export interface IdpClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** @default "client_secret_basic" */
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post";
}

export interface OidcIdp {
  /** `http://127.0.0.1:<port>`: the issuer, and where discovery lives. */
  issuer: string;
  /** An account's claims (`sub` is its id). */
  setAccount(accountId: string, claims: Record<string, unknown>): void;
  /**
   * Follows an authorization URL through the IdP as `accountId` (login and consent, no page) and
   * answers where the IdP finally sends the browser: the client's redirect URI with code and state,
   * or with an error.
   */
  signIn(authorizationURL: string, accountId: string): Promise<string>;
  /** Every path the IdP served, in order (discovery, jwks, token, userinfo…). */
  readonly requests: string[];
  close(): Promise<void>;
}

interface ProviderInstance {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<{ params: Record<string, unknown>; prompt: { name: string } }>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: Record<string, unknown>,
  ): Promise<void>;
  Grant: new (input: {
    accountId: string;
    clientId: string;
  }) => {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  };
}

type ProviderClass = new (issuer: string, configuration: Record<string, unknown>) => ProviderInstance;

// The core's dev dependency, by its file (the tests' package does not depend on it). Not a literal
// import, so no declaration file is needed: the few members used are typed above.
const OIDC_PROVIDER_MODULE = new URL(
  "../../packages/auth-core/node_modules/oidc-provider/lib/index.js",
  import.meta.url,
).href;

const LOGIN_PAGE = `<!doctype html><html lang="en"><head><title>Test IdP</title></head><body>
<h1>Test identity provider</h1><form method="post"><label for="login">Username</label>
<input id="login" name="login" autocomplete="username"><button type="submit">Log in</button></form></body></html>`;

function signingKey(): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { ...privateKey.export({ format: "jwk" }), kid: "test-idp-key", use: "sig", alg: "RS256" };
}

export async function startOidcIdp(options: {
  clients: IdpClient[];
  /**
   * A login page for browsers (tests/browser/sso.test.ts): the interaction shows a form asking for
   * the account id, and its POST signs that account in. Off: `signIn` finishes it without a page.
   */
  loginPage?: boolean;
}): Promise<OidcIdp> {
  const { default: Provider } = (await import(/* @vite-ignore */ OIDC_PROVIDER_MODULE)) as {
    default: ProviderClass;
  };
  const accounts = new Map<string, Record<string, unknown>>();
  const requests: string[] = [];
  let provider: ProviderInstance | null = null;
  let nextAccount = "";

  async function finishInteraction(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await provider!.interactionDetails(req, res);
    const grant = new provider!.Grant({ accountId: nextAccount, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope ?? "openid"));
    await provider!.interactionFinished(req, res, {
      login: { accountId: nextAccount },
      consent: { grantId: await grant.save() },
    });
  }

  async function answerLoginPage(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== "POST") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(LOGIN_PAGE);
      return;
    }
    let body = "";
    for await (const chunk of req) body += String(chunk);
    nextAccount = new URLSearchParams(body).get("login") ?? "";
    if (!accounts.has(nextAccount)) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(LOGIN_PAGE);
      return;
    }
    await finishInteraction(req, res);
  }

  const server = createServer((req, res) => {
    requests.push(new URL(req.url ?? "/", "http://idp").pathname);
    if (req.url?.startsWith("/interaction/") && options.loginPage) {
      answerLoginPage(req, res).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
      return;
    }
    if (req.url?.startsWith("/interaction/")) {
      finishInteraction(req, res).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
      return;
    }
    provider!.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = new Provider(issuer, {
    clients: options.clients.map((client) => ({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uris: [client.redirectUri],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: client.tokenEndpointAuthMethod ?? "client_secret_basic",
    })),
    findAccount: (_ctx: unknown, accountId: string) =>
      accounts.has(accountId)
        ? { accountId, claims: () => ({ sub: accountId, ...accounts.get(accountId) }) }
        : undefined,
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "given_name", "family_name", "picture"],
      groups: ["groups"],
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: ["tessera-test-idp-cookie-key"] },
    jwks: { keys: [signingKey()] },
  });

  return {
    issuer,
    requests,
    setAccount: (accountId, claims) => {
      accounts.set(accountId, claims);
    },
    signIn: async (authorizationURL, accountId) => {
      nextAccount = accountId;
      const cookies = new Map<string, string>();
      let url = authorizationURL;
      for (let hop = 0; hop < 10; hop++) {
        const response = await fetch(url, {
          redirect: "manual",
          headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") },
        });
        for (const line of response.headers.getSetCookie()) {
          const [pair = ""] = line.split(";");
          const eq = pair.indexOf("=");
          cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
        }
        const location = response.headers.get("location");
        if (!location) throw new Error(`the IdP answered ${response.status}: ${await response.text()}`);
        const next = new URL(location, url).toString();
        if (!next.startsWith(`${issuer}/`)) return next;
        url = next;
      }
      throw new Error("the IdP redirected more than 10 times");
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** One IdP for every test of a file: started before them, closed after; call the answer inside tests. */
export function useOidcIdp(clients: IdpClient[]): () => OidcIdp {
  let idp: OidcIdp | null = null;
  beforeAll(async () => {
    idp = await startOidcIdp({ clients });
  });
  afterAll(async () => {
    await idp?.close();
  });
  return () => idp!;
}
