import { randomBytes } from "node:crypto";
import { behaviourFor, type ProviderBehaviour } from "./oauth-behaviour.ts";
import { buildFixture, type ProviderFixture } from "./oauth-fixtures.ts";
import { KeyRing } from "./oauth-keys.ts";

/** The mutable state of tests/support/oauth-server.ts: clients, fixtures, failures, codes and tokens. */

export const TEST_CLIENT_ID = "test-client-id";
export const TEST_CLIENT_SECRET = "test-client-secret";

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

export interface IssueCodeInput {
  redirectURI: string;
  clientId?: string;
  codeChallenge?: string;
  nonce?: string;
  scope?: string;
  deviceId?: string;
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

/** What one authorization granted: bound to its code, then to the tokens issued for it. */
export interface Grant {
  providerId: string;
  clientId: string;
  redirectURI: string;
  codeChallenge: string | null;
  nonce: string | null;
  scope: string;
  deviceId: string | null;
  fixture: ProviderFixture;
}

export function randomToken(prefix: string): string {
  return `${prefix}_${randomBytes(18).toString("base64url")}`;
}

export class ServerState {
  readonly clients = new Map([[TEST_CLIENT_ID, TEST_CLIENT_SECRET]]);
  readonly keys = new KeyRing();
  readonly fixtures = new Map<string, ProviderFixture>();
  readonly behaviours = new Map<string, Partial<ProviderBehaviour>>();
  readonly failures = new Map<string, Failure>();
  readonly codes = new Map<string, Grant>();
  readonly accessTokens = new Map<string, Grant>();
  readonly refreshTokens = new Map<string, Grant>();
  /** Apple sends the `user` JSON on the first consent of a (provider, client) only. */
  readonly consented = new Set<string>();
  base = "";

  fixtureOf(id: string): ProviderFixture {
    return structuredClone(this.fixtures.get(id) ?? buildFixture(id));
  }

  behaviourOf(id: string): ProviderBehaviour {
    return { ...behaviourFor(id), ...this.behaviours.get(id) };
  }

  issuerOf(id: string): string {
    return `${this.base}/${id}`;
  }

  takeFailure(id: string, endpoint: string): Failure | null {
    const key = `${id} ${endpoint}`;
    const failure = this.failures.get(key);
    if (!failure) return null;
    const times = (failure.times ?? Number.POSITIVE_INFINITY) - 1;
    if (times <= 0) this.failures.delete(key);
    else failure.times = times;
    return failure;
  }

  createGrant(id: string, input: IssueCodeInput): string {
    const code = randomToken("code");
    this.codes.set(code, {
      providerId: id,
      clientId: input.clientId ?? TEST_CLIENT_ID,
      redirectURI: input.redirectURI,
      codeChallenge: input.codeChallenge ?? null,
      nonce: input.nonce ?? null,
      scope: input.scope ?? "",
      deviceId: input.deviceId ?? null,
      fixture: this.fixtureOf(id),
    });
    return code;
  }

  endpoints(id: string): ServerEndpoints {
    const prefix = `${this.base}/${id}`;
    const extraNames = Object.keys(this.fixtureOf(id).extra ?? {});
    return {
      authorization: `${prefix}/authorize`,
      token: `${prefix}/token`,
      userInfo: `${prefix}/userinfo`,
      jwks: `${prefix}/jwks`,
      issuer: this.issuerOf(id),
      revocation: `${prefix}/revoke`,
      extra: Object.fromEntries(extraNames.map((name) => [name, `${prefix}/${name}`])),
    };
  }

  discovery(id: string): Record<string, unknown> {
    const e = this.endpoints(id);
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

  reset(): void {
    this.failures.clear();
    this.fixtures.clear();
    this.behaviours.clear();
    this.consented.clear();
  }
}
