import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import type { ProviderBehaviour } from "./oauth-behaviour.ts";
import { buildFixture, DEFAULT_IDENTITY, type ProviderFixture, type TestIdentity } from "./oauth-fixtures.ts";
import { handleAuthorize, handleResource, handleToken } from "./oauth-grants.ts";
import {
  type AuthorizeResult,
  parseAuthorizeResponse,
  type RecordedRequest,
  readBody,
  sendJson,
} from "./oauth-http.ts";
import type { SignOptions } from "./oauth-keys.ts";
import {
  type Failure,
  type IssueCodeInput,
  type ServerEndpoints,
  ServerState,
  TEST_CLIENT_ID,
  TEST_CLIENT_SECRET,
} from "./oauth-state.ts";
import { standIn } from "./test-auth.ts";

/**
 * A real OAuth 2.0 / OIDC authorization server over node:http on 127.0.0.1 for tests — every
 * provider of docs/decisions/ (and any generic id) under its own path prefix, answering with that
 * provider's documented response shapes (tests/support/oauth-fixtures.ts).
 *
 *   const server = await startOAuthServer();
 *   createTestAuth({ socialProviders: { github: { clientId: TEST_CLIENT_ID, clientSecret: TEST_CLIENT_SECRET,
 *     endpoints: server.endpoints("github") } } });
 *   server.setIdentity("github", { id: "42", email: "a@x.io", emailVerified: true, name: "A", image: null });
 *   const { url } = (await browser.post("/sign-in/social", { provider: "github" })).body;
 *   const result = await server.authorize(url);        // { code, state, callbackURL, method, form }
 *   await browser.get(result.callbackURL.replace(TEST_ORIGIN + "/api/auth", ""));  // or post result.form (Apple)
 *   await server.close();
 *
 * Per provider id `p` (paths under `${server.url}/p`):
 *   /authorize  records the request; validates client_id, redirect_uri, response_type=code, and
 *               `code_challenge_method` (only S256); redirects to redirect_uri with code+state (VK adds
 *               device_id), or for Apple answers an auto-posting HTML form with code, state and the
 *               one-time `user` JSON (first consent only). The code snapshots the fixture and nonce.
 *   /token      authorization_code (one-time code, same client and redirect_uri, PKCE S256 check of
 *               code_verifier against the stored code_challenge, VK device_id) and refresh_token
 *               (rotating) grants; client auth by body or HTTP basic (Reddit/Spotify/Zoom: basic only;
 *               TikTok names the client `client_key`); a secret-less client must have used PKCE.
 *               Answers access_token, token_type, expires_in, scope, refresh_token (where the provider
 *               issues one) and an RS256 id_token when the fixture has idTokenClaims.
 *   /userinfo   bearer token (header, `access_token` query or form field) → fixture.userInfo.
 *   /{extra}    any name in fixture.extra (GitHub: /github/emails), same auth.
 *   /jwks, /.well-known/openid-configuration, /revoke.
 *
 * Failures: `fail(p, endpoint, { status, body, delayMs, error, errorDescription, times })` — a
 * status/body answer, a delay (timeouts), or for /authorize a redirect carrying `error`.
 * Id tokens: `signIdToken(p, claims, { key: "unknown" | "previous", alg: "none" | "HS256-public-key",
 * header })`; `rotateKeys(keepPrevious?)`. Every request is recorded in `requests`.
 */

export type { AuthorizeResult };
export { TEST_CLIENT_ID, TEST_CLIENT_SECRET };

export interface OAuthServer {
  url: string;
  endpoints(providerId: string): ServerEndpoints;
  /** `${url}/${providerId}/.well-known/openid-configuration` — for generic providers. */
  discoveryUrl(providerId: string): string;
  issuer(providerId: string): string;
  /** Answer as this person from now on (codes already issued keep their snapshot). */
  setIdentity(providerId: string, identity: Partial<TestIdentity>): void;
  /** Answer exactly this (raw provider-shaped) fixture from now on. */
  setProfile(providerId: string, fixture: ProviderFixture): void;
  fixture(providerId: string): ProviderFixture;
  configure(providerId: string, behaviour: Partial<ProviderBehaviour>): void;
  /** Follows an authorization URL as a consenting user; returns where the browser goes next. */
  authorize(authorizationURL: string | URL): Promise<AuthorizeResult>;
  /** Mints a code directly, as if /authorize had run with these parameters. */
  issueCode(providerId: string, input: IssueCodeInput): string;
  signIdToken(providerId: string, claims: Record<string, unknown>, options?: SignOptions): string;
  rotateKeys(keepPrevious?: boolean): void;
  fail(providerId: string, endpoint: string, failure: Failure): void;
  /** Clears failures, identities, behaviours and recorded requests. */
  reset(): void;
  readonly requests: RecordedRequest[];
  lastRequest(providerId: string, endpoint: string): RecordedRequest | null;
  close(): Promise<void>;
}

async function routeRequest(
  state: ServerState,
  requests: RecordedRequest[],
  req: IncomingMessage,
  res: ServerResponse,
) {
  const url = new URL(req.url ?? "/", state.base);
  const match = url.pathname.match(/^\/([a-z0-9-]+)\/(.+)$/);
  if (!match?.[1] || !match[2]) return sendJson(res, 404, { error: "not_found" });
  const [, id, endpoint] = match;
  const request = await readBody(req, url, id, endpoint);
  requests.push(request);
  const failure = endpoint === "authorize" ? null : state.takeFailure(id, endpoint);
  if (failure?.delayMs) await new Promise((resolve) => setTimeout(resolve, failure.delayMs));
  if (failure && (failure.status !== undefined || failure.body !== undefined)) {
    return sendJson(res, failure.status ?? 500, failure.body ?? { error: "server_error" });
  }
  if (endpoint === "authorize") return handleAuthorize(state, id, request, res);
  if (endpoint === "token") return handleToken(state, id, request, res);
  if (endpoint === "jwks") return sendJson(res, 200, state.keys.jwks());
  if (endpoint === ".well-known/openid-configuration") return sendJson(res, 200, state.discovery(id));
  if (endpoint === "revoke") return sendJson(res, 200, {});
  handleResource(state, id, endpoint, request, res);
}

export async function startOAuthServer(): Promise<OAuthServer> {
  const state = new ServerState();
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    routeRequest(state, requests, req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: "server_error", error_description: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: state.base,
    endpoints: (id) => state.endpoints(id),
    discoveryUrl: (id) => `${state.base}/${id}/.well-known/openid-configuration`,
    issuer: (id) => state.issuerOf(id),
    setIdentity: (id, identity) => {
      state.fixtures.set(id, buildFixture(id, { ...DEFAULT_IDENTITY, ...identity }));
    },
    setProfile: (id, fixture) => {
      state.fixtures.set(id, structuredClone(fixture));
    },
    fixture: (id) => state.fixtureOf(id),
    configure: (id, behaviour) => {
      state.behaviours.set(id, { ...state.behaviours.get(id), ...behaviour });
    },
    authorize: async (authorizationURL) =>
      parseAuthorizeResponse(await fetch(authorizationURL, { redirect: "manual" })),
    issueCode: (id, input) => state.createGrant(id, input),
    signIdToken: (id, claims, options) => {
      const now = Math.floor(Date.now() / 1000);
      const full = { iss: state.issuerOf(id), aud: TEST_CLIENT_ID, iat: now, exp: now + 3600, ...claims };
      const defined = Object.fromEntries(Object.entries(full).filter(([, value]) => value !== undefined));
      return state.keys.sign(defined, options);
    },
    rotateKeys: (keepPrevious = true) => state.keys.rotate(keepPrevious),
    fail: (id, endpoint, failure) => {
      state.failures.set(`${id} ${endpoint}`, { ...failure });
    },
    reset: () => {
      state.reset();
      requests.length = 0;
    },
    requests,
    lastRequest: (id, endpoint) =>
      requests.findLast((request) => request.providerId === id && request.endpoint === endpoint) ?? null,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** One scripted OAuth server for every test of the file: started before them, closed after them. */
export function useOAuthServer(): OAuthServer {
  let server: OAuthServer | undefined;
  beforeAll(async () => {
    server = await startOAuthServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  return standIn(() => server, "useOAuthServer: the server starts in beforeAll; use it in a test");
}
