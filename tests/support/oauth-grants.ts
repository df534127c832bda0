import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import { type RecordedRequest, renderFormPost, sendJson } from "./oauth-http.ts";
import { type Grant, randomToken, type ServerState } from "./oauth-state.ts";

/** The /authorize, /token and resource handlers of tests/support/oauth-server.ts (RFC 6749, RFC 7636). */

export function handleAuthorize(
  state: ServerState,
  id: string,
  request: RecordedRequest,
  res: ServerResponse,
) {
  const q = request.query;
  const behaviour = state.behaviourOf(id);
  const clientId = q[behaviour.clientIdParam];
  const redirectURI = q.redirect_uri;
  if (!clientId || !state.clients.has(clientId) || !redirectURI) {
    return sendJson(res, 400, {
      error: "invalid_request",
      error_description: "unknown client or no redirect_uri",
    });
  }
  const reply = (params: Record<string, string>) => {
    if (q.state !== undefined) params.state = q.state;
    if (behaviour.responseMode === "form_post") return renderFormPost(res, redirectURI, params);
    const back = new URL(redirectURI);
    for (const [key, value] of Object.entries(params)) back.searchParams.set(key, value);
    res.writeHead(302, { location: back.toString() }).end();
  };
  const failure = state.takeFailure(id, "authorize");
  if (failure?.error) {
    const params: Record<string, string> = { error: failure.error };
    if (failure.errorDescription) params.error_description = failure.errorDescription;
    return reply(params);
  }
  if (q.response_type !== "code") return reply({ error: "unsupported_response_type" });
  if (q.code_challenge !== undefined && q.code_challenge_method !== "S256") {
    return reply({ error: "invalid_request", error_description: "code_challenge_method must be S256" });
  }
  const deviceId = behaviour.deviceId ? randomToken("device") : undefined;
  const code = state.createGrant(id, {
    redirectURI,
    clientId,
    codeChallenge: q.code_challenge,
    nonce: q.nonce,
    scope: q.scope ?? "",
    deviceId,
  });
  const params: Record<string, string> = { code };
  if (deviceId) params.device_id = deviceId;
  const formPostUser = state.codes.get(code)?.fixture.formPostUser;
  if (formPostUser !== undefined && !state.consented.has(`${id} ${clientId}`)) {
    state.consented.add(`${id} ${clientId}`);
    params.user = JSON.stringify(formPostUser);
  }
  reply(params);
}

/** The authenticated client id, `public:<id>` for a client without secret, or null. */
function authenticateClient(state: ServerState, id: string, request: RecordedRequest): string | null {
  const behaviour = state.behaviourOf(id);
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
  if (!clientId || !state.clients.has(clientId)) return null;
  if (secret !== undefined && state.clients.get(clientId) !== secret) return null;
  return secret === undefined ? `public:${clientId}` : clientId;
}

function answerTokens(state: ServerState, res: ServerResponse, grant: Grant) {
  const behaviour = state.behaviourOf(grant.providerId);
  const accessToken = randomToken("at");
  state.accessTokens.set(accessToken, grant);
  const body: Record<string, unknown> = {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: behaviour.expiresIn,
    scope: grant.scope.split(/[ ,]+/).filter(Boolean).join(behaviour.scopeSeparator),
    ...grant.fixture.tokenExtras,
  };
  if (behaviour.issuesRefreshTokens) {
    const refreshToken = randomToken("rt");
    state.refreshTokens.set(refreshToken, grant);
    body.refresh_token = refreshToken;
  }
  if (grant.fixture.idTokenClaims) {
    const now = Math.floor(Date.now() / 1000);
    body.id_token = state.keys.sign({
      iss: state.issuerOf(grant.providerId),
      aud: grant.clientId,
      iat: now,
      exp: now + 3600,
      ...(grant.nonce ? { nonce: grant.nonce } : {}),
      ...grant.fixture.idTokenClaims,
    });
  }
  sendJson(res, 200, body);
}

export function handleToken(state: ServerState, id: string, request: RecordedRequest, res: ServerResponse) {
  const form = request.form;
  const client = authenticateClient(state, id, request);
  if (!client) return sendJson(res, 401, { error: "invalid_client" });
  const clientId = client.replace(/^public:/, "");
  if (form.grant_type === "refresh_token") {
    const grant = form.refresh_token ? state.refreshTokens.get(form.refresh_token) : undefined;
    if (!grant || grant.providerId !== id || grant.clientId !== clientId) {
      return sendJson(res, 400, { error: "invalid_grant", error_description: "unknown refresh token" });
    }
    // Rotation: the used refresh token is gone.
    state.refreshTokens.delete(form.refresh_token ?? "");
    return answerTokens(state, res, grant);
  }
  if (form.grant_type !== "authorization_code")
    return sendJson(res, 400, { error: "unsupported_grant_type" });
  // One-time codes: a code is spent by any attempt, failed or not (RFC 6749 §4.1.2).
  const grant = form.code ? state.codes.get(form.code) : undefined;
  state.codes.delete(form.code ?? "");
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
  answerTokens(state, res, grant);
}

/** /userinfo and extra endpoints: the bearer token (header, query or form) selects the grant's snapshot. */
export function handleResource(
  state: ServerState,
  id: string,
  name: string,
  request: RecordedRequest,
  res: ServerResponse,
) {
  const bearer = request.headers.authorization?.match(/^Bearer (.+)$/i)?.[1];
  const token = bearer ?? request.query.access_token ?? request.form.access_token;
  const grant = token ? state.accessTokens.get(token) : undefined;
  if (!grant || grant.providerId !== id) return sendJson(res, 401, { error: "invalid_token" });
  if (name === "userinfo") return sendJson(res, 200, grant.fixture.userInfo);
  const extra = grant.fixture.extra?.[name];
  if (extra === undefined) return sendJson(res, 404, { error: "not_found" });
  sendJson(res, 200, extra);
}
