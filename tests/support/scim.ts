import { randomBytes } from "node:crypto";
import type { ConfigOptions } from "@tessera/auth-core/server";
import { afterAll, beforeAll } from "vitest";
import type { Fixture } from "#test/organization.ts";
import { browserLikeFetch, type LiveServer, startLiveServer } from "../client/live-server.ts";

/** Test set-up for SCIM: tokens made through the endpoint, requests sent as a directory sends them. */

export interface ScimAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** Org A's owner (or org B's with `"B"`) makes a token for the connection `providerId`. */
export async function makeScimToken(f: Fixture, org: "A" | "B" = "A", providerId = "okta"): Promise<string> {
  const owner = org === "A" ? f.O : f.P;
  const res = await owner.browser.post<{ scimToken: string }>("/scim/generate-token", { providerId });
  if (res.status !== 200) throw new Error(`generate-token answered ${res.status}`);
  return res.body.scimToken;
}

/** A request to `/api/auth/scim/v2<path>` with the token (none when null), JSON body as application/scim+json. */
export async function scim<T = Record<string, unknown>>(
  f: Fixture,
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ScimAnswer<T>> {
  const sent = new Headers(headers);
  if (token !== null && !sent.has("authorization")) sent.set("authorization", `Bearer ${token}`);
  if (body !== undefined && !sent.has("content-type")) sent.set("content-type", "application/scim+json");
  const response = await f.t.auth.handler(
    new Request(`http://localhost:3000/api/auth/scim/v2${path}`, {
      method,
      headers: sent,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}

export function scimErrorBody(status: number, detail: string, scimType?: string) {
  return {
    schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"],
    status: String(status),
    ...(scimType ? { scimType } : {}),
    detail,
  };
}

/**
 * The standalone server with teams on and one organization whose directory uses `token` (a
 * connection declared in the options, as infrastructure as code does): what the conformance
 * checkers and the Entra/Okta replays talk to over real HTTP.
 */
export interface ScimServer {
  live: LiveServer;
  /** e.g. http://127.0.0.1:41234/api/auth/scim/v2 */
  baseUrl: string;
  token: string;
  organizationId: string;
  /** Someone signs up on the server (an account the directory may then provision) and keeps a browser. */
  signUp(
    email: string,
    name: string,
  ): Promise<{ userId: string; post: (path: string, body: unknown) => Promise<Response> }>;
  /** A request to `<baseUrl><path>` with the token, as a directory sends it. */
  send<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ScimAnswer<T>>;
}

async function startScimServer(overrides: ConfigOptions = {}): Promise<ScimServer> {
  const token = `scim-live-${randomBytes(24).toString("hex")}`;
  const live = await startLiveServer({
    organization: { teams: { enabled: true } },
    scim: { connections: [{ id: "directory", organization: "acme", token }] },
    ...overrides,
  });
  const api = `${live.origin}/api/auth`;
  const signUp = async (email: string, name: string) => {
    const own = browserLikeFetch(live.origin);
    const send = (path: string, body: unknown) =>
      own.fetch(`${api}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const answer = await send("/sign-up/email", { email, password: "correct horse battery staple", name });
    if (answer.status !== 200) throw new Error(`sign-up answered ${answer.status}`);
    return { userId: ((await answer.json()) as { user: { id: string } }).user.id, post: send };
  };
  const admin = await signUp("it-admin@acme.test", "IT Admin");
  const created = await admin.post("/organization/create", { name: "Acme", slug: "acme" });
  if (created.status !== 200) throw new Error(`organization/create answered ${created.status}`);
  const organizationId = ((await created.json()) as { id: string }).id;
  const baseUrl = `${api}/scim/v2`;
  return {
    live,
    baseUrl,
    token,
    organizationId,
    signUp,
    async send(method, path, body, headers = {}) {
      const sent = new Headers(headers);
      if (!sent.has("authorization")) sent.set("authorization", `Bearer ${token}`);
      if (body !== undefined && !sent.has("content-type")) sent.set("content-type", "application/scim+json");
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: sent,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return {
        status: response.status,
        body: (text ? JSON.parse(text) : null) as never,
        headers: response.headers,
      };
    },
  };
}

/** The SCIM server of a test file: started before its tests, closed after them (filled in by then). */
export function scimServerForFile(): ScimServer {
  const server = {} as ScimServer;
  beforeAll(async () => {
    Object.assign(server, await startScimServer());
  }, 60_000);
  afterAll(() => server.live?.close());
  return server;
}

/** `filter=<encoded>` for a list's query string. */
export function filterQuery(filter: string): string {
  return `filter=${encodeURIComponent(filter)}`;
}
