import type { Fixture } from "#test/organization.ts";

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
