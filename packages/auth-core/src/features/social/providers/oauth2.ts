import { createHash } from "node:crypto";
import { asArray, asRecord, asString } from "./fields.ts";
import { fetchProvider, providerErrorIn } from "./http.ts";
import {
  type AuthorizationInput,
  type CodeExchangeInput,
  type ProviderDeps,
  type ProviderEndpoints,
  ProviderError,
  type ProviderOptions,
  type ProviderTokens,
} from "./types.ts";

/** Shared OAuth 2.0 client mechanics (RFC 6749, RFC 7636) used by every provider file. */

/** The provider's real endpoints with `options.endpoints` laid over them (how tests point at a local server). */
export function resolveEndpoints(
  defaults: ProviderEndpoints,
  override: ProviderOptions["endpoints"],
): ProviderEndpoints {
  return { ...defaults, ...override, extra: { ...defaults.extra, ...override?.extra } };
}

/** Default scopes (unless disabled), then configured, then requested; each once, in that order. */
function collectScopes(defaults: string[], options: ProviderOptions, requested: string[]): string[] {
  const all = [...(options.disableDefaultScope ? [] : defaults), ...(options.scope ?? []), ...requested];
  return [...new Set(all)];
}

/** RFC 7636 S256: BASE64URL(SHA256(verifier)). `plain` is never offered (ASVS 10.4.6). */
function createS256Challenge(codeVerifier: string): string {
  return createHash("sha256").update(codeVerifier).digest("base64url");
}

export interface ClientConfig {
  options: ProviderOptions;
  deps: ProviderDeps;
  endpoints: ProviderEndpoints;
  defaultScopes: string[];
  /** TikTok uses "," and calls the client `client_key`. */
  scopeSeparator?: " " | ",";
  clientIdParam?: "client_id" | "client_key";
  pkce: boolean;
  /** Where the client credentials go in token requests (RFC 6749 §2.3.1): HTTP basic or the form. */
  clientAuth: "basic" | "body";
  /** Provider-specific authorization parameters (access_type, duration, response_mode, …). */
  authorizationParams?: Record<string, string>;
  /** Whether `login_hint` means something to this provider. */
  loginHint?: boolean;
  /** Whether `nonce` goes in the URL (providers that issue id tokens). */
  nonce?: boolean;
  /** Extra headers on token requests. */
  tokenHeaders?: Record<string, string>;
}

export function createAuthorizationURL(config: ClientConfig, input: AuthorizationInput): URL {
  const url = new URL(config.endpoints.authorization);
  const params = url.searchParams;
  params.set("response_type", "code");
  params.set(config.clientIdParam ?? "client_id", config.options.clientId);
  params.set("redirect_uri", input.redirectURI);
  params.set("state", input.state);
  const scopes = collectScopes(config.defaultScopes, config.options, input.scopes);
  if (scopes.length > 0) params.set("scope", scopes.join(config.scopeSeparator ?? " "));
  if (config.pkce) {
    params.set("code_challenge", createS256Challenge(input.codeVerifier));
    params.set("code_challenge_method", "S256");
  }
  if (config.options.prompt) params.set("prompt", config.options.prompt);
  if (config.loginHint && input.loginHint) params.set("login_hint", input.loginHint);
  if (config.nonce && input.nonce) params.set("nonce", input.nonce);
  for (const [key, value] of Object.entries(config.authorizationParams ?? {})) params.set(key, value);
  return url;
}

function secondsFrom(now: Date, value: unknown): Date | null {
  const seconds = typeof value === "string" ? Number(value) : value;
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds <= 0) return null;
  return new Date(now.getTime() + seconds * 1000);
}

/**
 * A token response (RFC 6749 §5.1) in our shape. Throws ProviderError when it carries an error or no access token.
 * @internal Exported for its unit test (oauth2.test.ts).
 */
export function normalizeTokens(body: unknown, now: Date): ProviderTokens {
  const refusal = providerErrorIn(body);
  if (refusal)
    throw new ProviderError("provider refused the token request", refusal.error, refusal.description);
  const record = asRecord(body);
  const accessToken = asString(record?.access_token);
  if (!record || accessToken === null) throw new ProviderError("token response without access_token");
  const scope = record.scope;
  const scopes = Array.isArray(scope)
    ? asArray(scope)
        .map(asString)
        .filter((item): item is string => item !== null)
    : (asString(scope)
        ?.split(/[\s,]+/)
        .filter(Boolean) ?? []);
  return {
    accessToken,
    refreshToken: asString(record.refresh_token),
    idToken: asString(record.id_token),
    accessTokenExpiresAt: secondsFrom(now, record.expires_in),
    // Dropbox/LinkedIn say refresh_token_expires_in, TikTok refresh_expires_in.
    refreshTokenExpiresAt: secondsFrom(now, record.refresh_token_expires_in ?? record.refresh_expires_in),
    scopes,
    tokenType: asString(record.token_type),
  };
}

/** POSTs a token request with the client's credentials where this provider wants them. */
async function requestTokens(config: ClientConfig, form: Record<string, string>): Promise<ProviderTokens> {
  const { clientId, clientSecret } = config.options;
  const headers: Record<string, string> = { ...config.tokenHeaders };
  const body = { ...form };
  if (config.clientAuth === "basic" && clientSecret !== undefined) {
    // RFC 6749 §2.3.1: form-urlencode each part before joining.
    const user = encodeURIComponent(clientId);
    headers.authorization = `Basic ${Buffer.from(`${user}:${encodeURIComponent(clientSecret)}`).toString("base64")}`;
  } else {
    body[config.clientIdParam ?? "client_id"] = clientId;
    if (clientSecret !== undefined) body.client_secret = clientSecret;
  }
  const answer = await fetchProvider(config.deps, config.endpoints.token, {
    method: "POST",
    headers,
    form: body,
  });
  return normalizeTokens(answer, config.deps.now());
}

export function exchangeAuthorizationCode(
  config: ClientConfig,
  input: CodeExchangeInput,
  extra: Record<string, string> = {},
): Promise<ProviderTokens> {
  const form: Record<string, string> = {
    grant_type: "authorization_code",
    code: input.code,
    redirect_uri: input.redirectURI,
    ...extra,
  };
  if (config.pkce) form.code_verifier = input.codeVerifier;
  return requestTokens(config, form);
}

/** RFC 6749 §6. A provider that does not rotate refresh tokens answers without one: the flow keeps the old. */
export function refreshAccessToken(config: ClientConfig, refreshToken: string): Promise<ProviderTokens> {
  return requestTokens(config, { grant_type: "refresh_token", refresh_token: refreshToken });
}

/** A GET (or POST) to a user-info endpoint with the bearer token; null on any failure (contract of getUserProfile). */
export async function fetchUserInfo(
  config: ClientConfig,
  url: string | URL | null | undefined,
  tokens: ProviderTokens,
  request: { method?: "GET" | "POST"; headers?: Record<string, string> } = {},
): Promise<unknown> {
  if (tokens.accessToken === null || !url) return null;
  try {
    const body = await fetchProvider(config.deps, url, {
      ...request,
      headers: { authorization: `Bearer ${tokens.accessToken}`, ...request.headers },
    });
    return providerErrorIn(body) ? null : body;
  } catch (error) {
    if (error instanceof ProviderError) return null;
    throw error;
  }
}

/** The user-info URL with the query a provider needs (fields lists), whatever base URL is configured. */
export function withQuery(base: string | undefined, query: Record<string, string>): URL | null {
  if (!base) return null;
  const url = new URL(base);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url;
}
