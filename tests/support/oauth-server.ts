import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  behaviourFor,
  buildFixture,
  DEFAULT_IDENTITY,
  type ProviderBehaviour,
  type ProviderFixture,
  type TestIdentity,
} from "./oauth-fixtures.ts";
import {
  type AuthorizeResult,
  parseAuthorizeResponse,
  type RecordedRequest,
  readBody,
  renderFormPost,
  sendJson,
} from "./oauth-http.ts";
import { KeyRing, type SignOptions } from "./oauth-keys.ts";

/**
 * A real OAuth 2.0 / OIDC authorization server over node:http on 127.0.0.1 for tests — every
 * provider of SPEC §1 (and any generic id) under its own path prefix, answering with that
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

export const TEST_CLIENT_ID = "test-client-id";
export const TEST_CLIENT_SECRET = "test-client-secret";

export type { AuthorizeResult, ProviderFixture, RecordedRequest, TestIdentity };

export interface Failure {
  status?: number;
  body?: unknown;
  delayMs?: number;
  /** /authorize only: redirect back with this `error` (e.g. "access_denied"). */
  error?: string;
  errorDescription?: string;
  /** How many requests it applies to. @default Infinity */
  times?: number;
}

/** The endpoint overrides a test passes as `socialProviders.<id>.endpoints`. */
export interface ServerEndpoints {
  authorization: string;
  token: string;
  userInfo: string;
  jwks: string;
  issuer: string;
  revocation: string;
  extra: Record<string, string>;
}

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

export interface IssueCodeInput {
  redirectURI: string;
  clientId?: string;
  codeChallenge?: string;
  nonce?: string;
  scope?: string;
  deviceId?: string;
}

interface Grant {
  providerId: string;
  clientId: string;
  redirectURI: string;
  codeChallenge: string | null;
  nonce: string | null;
  scope: string;
  deviceId: string | null;
  fixture: ProviderFixture;
}

const CLIENTS = new Map([[TEST_CLIENT_ID, TEST_CLIENT_SECRET]]);

function randomToken(prefix: string): string {
  return `${prefix}_${randomBytes(18).toString("base64url")}`;
}

export async function startOAuthServer(): Promise<OAuthServer> {
  const keys = new KeyRing();
  const fixtures = new Map<string, ProviderFixture>();
  const behaviours = new Map<string, Partial<ProviderBehaviour>>();
  const failures = new Map<string, Failure>();
  const codes = new Map<string, Grant>();
  const accessTokens = new Map<string, Grant>();
  const refreshTokens = new Map<string, Grant>();
  const consented = new Set<string>();
  const requests: RecordedRequest[] = [];
  let base = "";

  const fixtureOf = (id: string) => structuredClone(fixtures.get(id) ?? buildFixture(id));
  const behaviourOf = (id: string): ProviderBehaviour => ({ ...behaviourFor(id), ...behaviours.get(id) });
  const issuerOf = (id: string) => `${base}/${id}`;

  function takeFailure(id: string, endpoint: string): Failure | null {
    const failure = failures.get(`${id} ${endpoint}`);
    if (!failure) return null;
    const times = (failure.times ?? Number.POSITIVE_INFINITY) - 1;
    if (times <= 0) failures.delete(`${id} ${endpoint}`);
    else failure.times = times;
    return failure;
  }

  function createGrant(id: string, input: IssueCodeInput): string {
    const code = randomToken("code");
    codes.set(code, {
      providerId: id,
      clientId: input.clientId ?? TEST_CLIENT_ID,
      redirectURI: input.redirectURI,
      codeChallenge: input.codeChallenge ?? null,
      nonce: input.nonce ?? null,
      scope: input.scope ?? "",
      deviceId: input.deviceId ?? null,
      fixture: fixtureOf(id),
    });
    return code;
  }

  function handleAuthorize(id: string, request: RecordedRequest, res: ServerResponse) {
    const q = request.query;
    const behaviour = behaviourOf(id);
    const clientId = q[behaviour.clientIdParam];
    const redirectURI = q.redirect_uri;
    if (!clientId || !CLIENTS.has(clientId) || !redirectURI) {
      return sendJson(res, 400, {
        error: "invalid_request",
        error_description: "unknown client or no redirect_uri",
      });
    }
    const back = new URL(redirectURI);
    const reply = (params: Record<string, string>) => {
      if (q.state !== undefined) params.state = q.state;
      if (behaviour.responseMode === "form_post") return renderFormPost(res, redirectURI, params);
      for (const [key, value] of Object.entries(params)) back.searchParams.set(key, value);
      res.writeHead(302, { location: back.toString() }).end();
    };
    const failure = takeFailure(id, "authorize");
    if (failure?.error) {
      return reply({
        error: failure.error,
        ...(failure.errorDescription ? { error_description: failure.errorDescription } : {}),
      });
    }
    if (q.response_type !== "code") return reply({ error: "unsupported_response_type" });
    if (q.code_challenge !== undefined && q.code_challenge_method !== "S256") {
      return reply({ error: "invalid_request", error_description: "code_challenge_method must be S256" });
    }
    const deviceId = behaviour.deviceId ? randomToken("device") : undefined;
    const code = createGrant(id, {
      redirectURI,
      clientId,
      codeChallenge: q.code_challenge,
      nonce: q.nonce,
      scope: q.scope ?? "",
      deviceId,
    });
    const params: Record<string, string> = { code };
    if (deviceId) params.device_id = deviceId;
    const grant = codes.get(code);
    if (grant?.fixture.formPostUser !== undefined && !consented.has(`${id} ${clientId}`)) {
      consented.add(`${id} ${clientId}`);
      params.user = JSON.stringify(grant.fixture.formPostUser);
    }
    reply(params);
  }

  function authenticateClient(id: string, request: RecordedRequest): string | null {
    const behaviour = behaviourOf(id);
    const basic = request.headers.authorization?.match(/^Basic (.+)$/i);
    let clientId: string | undefined;
    let secret: string | undefined;
    if (basic?.[1]) {
      const [user = "", pass = ""] = Buffer.from(basic[1], "base64").toString().split(":");
      clientId = decodeURIComponent(user);
      secret = decodeURIComponent(pass);
    } else if (behaviour.clientAuth === "basic") {
      return null;
    } else {
      clientId = request.form[behaviour.clientIdParam];
      secret = request.form.client_secret;
    }
    if (!clientId || !CLIENTS.has(clientId)) return null;
    if (secret !== undefined && CLIENTS.get(clientId) !== secret) return null;
    return secret === undefined ? `public:${clientId}` : clientId;
  }

  function answerTokens(res: ServerResponse, grant: Grant, includeIdToken: boolean): void {
    const behaviour = behaviourOf(grant.providerId);
    const accessToken = randomToken("at");
    accessTokens.set(accessToken, grant);
    const body: Record<string, unknown> = {
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: behaviour.expiresIn,
      scope: grant.scope.split(/[ ,]+/).filter(Boolean).join(behaviour.scopeSeparator),
      ...grant.fixture.tokenExtras,
    };
    if (behaviour.issuesRefreshTokens) {
      const refreshToken = randomToken("rt");
      refreshTokens.set(refreshToken, grant);
      body.refresh_token = refreshToken;
    }
    if (includeIdToken && grant.fixture.idTokenClaims) {
      const now = Math.floor(Date.now() / 1000);
      body.id_token = keys.sign({
        iss: issuerOf(grant.providerId),
        aud: grant.clientId,
        iat: now,
        exp: now + 3600,
        ...(grant.nonce ? { nonce: grant.nonce } : {}),
        ...grant.fixture.idTokenClaims,
      });
    }
    sendJson(res, 200, body);
  }

  function handleToken(id: string, request: RecordedRequest, res: ServerResponse) {
    const form = request.form;
    const client = authenticateClient(id, request);
    if (!client) return sendJson(res, 401, { error: "invalid_client" });
    const clientId = client.replace(/^public:/, "");
    if (form.grant_type === "refresh_token") {
      const grant = form.refresh_token ? refreshTokens.get(form.refresh_token) : undefined;
      if (!grant || grant.providerId !== id || grant.clientId !== clientId) {
        return sendJson(res, 400, { error: "invalid_grant", error_description: "unknown refresh token" });
      }
      refreshTokens.delete(form.refresh_token ?? "");
      return answerTokens(res, grant, true);
    }
    if (form.grant_type !== "authorization_code")
      return sendJson(res, 400, { error: "unsupported_grant_type" });
    const grant = form.code ? codes.get(form.code) : undefined;
    codes.delete(form.code ?? "");
    if (!grant || grant.providerId !== id || grant.clientId !== clientId) {
      return sendJson(res, 400, { error: "invalid_grant", error_description: "unknown or used code" });
    }
    if (form.redirect_uri !== grant.redirectURI) {
      return sendJson(res, 400, { error: "invalid_grant", error_description: "redirect_uri mismatch" });
    }
    if (grant.codeChallenge !== null) {
      const verifier = form.code_verifier ?? "";
      if (createHash("sha256").update(verifier).digest("base64url") !== grant.codeChallenge) {
        return sendJson(res, 400, { error: "invalid_grant", error_description: "PKCE verification failed" });
      }
    } else if (client.startsWith("public:")) {
      return sendJson(res, 401, { error: "invalid_client", error_description: "client_secret required" });
    }
    if (grant.deviceId !== null && form.device_id !== grant.deviceId) {
      return sendJson(res, 400, { error: "invalid_request", error_description: "device_id mismatch" });
    }
    answerTokens(res, grant, true);
  }

  function handleResource(id: string, name: string, request: RecordedRequest, res: ServerResponse) {
    const bearer = request.headers.authorization?.match(/^Bearer (.+)$/i)?.[1];
    const token = bearer ?? request.query.access_token ?? request.form.access_token;
    const grant = token ? accessTokens.get(token) : undefined;
    if (!grant || grant.providerId !== id) return sendJson(res, 401, { error: "invalid_token" });
    if (name === "userinfo") return sendJson(res, 200, grant.fixture.userInfo);
    const extra = grant.fixture.extra?.[name];
    if (extra === undefined) return sendJson(res, 404, { error: "not_found" });
    sendJson(res, 200, extra);
  }

  function discovery(id: string): Record<string, unknown> {
    const e = endpoints(id);
    return {
      issuer: e.issuer,
      authorization_endpoint: e.authorization,
      token_endpoint: e.token,
      userinfo_endpoint: e.userInfo,
      jwks_uri: e.jwks,
      revocation_endpoint: e.revocation,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
      scopes_supported: ["openid", "email", "profile", "offline_access"],
    };
  }

  async function route(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", base);
    const match = url.pathname.match(/^\/([a-z0-9-]+)\/(.+)$/);
    if (!match?.[1] || !match[2]) return sendJson(res, 404, { error: "not_found" });
    const [, id, endpoint] = match;
    const request = await readBody(req, url, id, endpoint);
    requests.push(request);
    const failure = endpoint === "authorize" ? null : takeFailure(id, endpoint);
    if (failure?.delayMs) await new Promise((resolve) => setTimeout(resolve, failure.delayMs));
    if (failure && (failure.status !== undefined || failure.body !== undefined)) {
      return sendJson(res, failure.status ?? 500, failure.body ?? { error: "server_error" });
    }
    if (endpoint === "authorize") return handleAuthorize(id, request, res);
    if (endpoint === "token") return handleToken(id, request, res);
    if (endpoint === "jwks") return sendJson(res, 200, keys.jwks());
    if (endpoint === ".well-known/openid-configuration") return sendJson(res, 200, discovery(id));
    if (endpoint === "revoke") return sendJson(res, 200, {});
    handleResource(id, endpoint, request, res);
  }

  function endpoints(id: string): ServerEndpoints {
    const prefix = `${base}/${id}`;
    const extraNames = Object.keys(fixtureOf(id).extra ?? {});
    return {
      authorization: `${prefix}/authorize`,
      token: `${prefix}/token`,
      userInfo: `${prefix}/userinfo`,
      jwks: `${prefix}/jwks`,
      issuer: issuerOf(id),
      revocation: `${prefix}/revoke`,
      extra: Object.fromEntries(extraNames.map((name) => [name, `${prefix}/${name}`])),
    };
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: "server_error", error_description: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    endpoints,
    discoveryUrl: (id) => `${base}/${id}/.well-known/openid-configuration`,
    issuer: issuerOf,
    setIdentity: (id, identity) => {
      fixtures.set(id, buildFixture(id, { ...DEFAULT_IDENTITY, ...identity }));
    },
    setProfile: (id, fixture) => {
      fixtures.set(id, structuredClone(fixture));
    },
    fixture: fixtureOf,
    configure: (id, behaviour) => {
      behaviours.set(id, { ...behaviours.get(id), ...behaviour });
    },
    authorize: async (authorizationURL) => {
      const response = await fetch(authorizationURL, { redirect: "manual" });
      return parseAuthorizeResponse(response);
    },
    issueCode: createGrant,
    signIdToken: (id, claims, options) => {
      const now = Math.floor(Date.now() / 1000);
      const full = { iss: issuerOf(id), aud: TEST_CLIENT_ID, iat: now, exp: now + 3600, ...claims };
      const defined = Object.fromEntries(Object.entries(full).filter(([, value]) => value !== undefined));
      return keys.sign(defined, options);
    },
    rotateKeys: (keepPrevious = true) => keys.rotate(keepPrevious),
    fail: (id, endpoint, failure) => {
      failures.set(`${id} ${endpoint}`, { ...failure });
    },
    reset: () => {
      failures.clear();
      fixtures.clear();
      behaviours.clear();
      consented.clear();
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
