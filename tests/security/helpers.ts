import type { Auth } from "@tessera/auth-core";
import { expect } from "vitest";

export { snapshotDatabase } from "#test/database.ts";

import { TEST_ORIGIN } from "#test/test-auth.ts";

export interface RawResult {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON when the response is JSON, otherwise undefined. */
  json: unknown;
}

/**
 * One request exactly as given — no cookies, Origin or content type added — for the tests whose
 * point is a missing or odd header.
 */
export async function sendRaw(
  auth: Auth,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: BodyInit; remoteAddress?: string } = {},
): Promise<RawResult> {
  const url = path.startsWith("http") ? path : `${TEST_ORIGIN}/api/auth${path}`;
  const request = new Request(url, {
    method,
    headers: init.headers,
    body: init.body,
    ...(init.body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
  const response = await auth.handler(request, { remoteAddress: init.remoteAddress ?? "127.0.0.1" });
  const text = await response.text();
  const isJson = (response.headers.get("content-type") ?? "").includes("application/json");
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: isJson && text !== "" ? JSON.parse(text) : undefined,
  };
}

/** POSTs a JSON text (not an object: keys like `__proto__` must survive as sent). */
export function postJsonText(
  auth: Auth,
  path: string,
  text: string,
  headers: Record<string, string> = {},
): Promise<RawResult> {
  return sendRaw(auth, "POST", path, {
    headers: { "content-type": "application/json", ...headers },
    body: text,
  });
}

/**
 * The response is exactly the catalogue error: status and `{ code, message }` — plus, for
 * VALIDATION_ERROR only, the `issues` list (field path and rule, never the value sent).
 */
export function expectCatalogueError(
  result: { status: number; json?: unknown; body?: unknown },
  status: number,
  code: string,
  message: string,
): void {
  const body = (result.json ?? result.body) as Record<string, unknown> | null;
  const { issues, ...rest } = body ?? {};
  expect({ status: result.status, body: rest }).toEqual({ status, body: { code, message } });
  if (code === "VALIDATION_ERROR") {
    expect(issues).toEqual(
      expect.arrayContaining([{ path: expect.any(String), message: expect.any(String) }]),
    );
  } else {
    expect(issues).toBeUndefined();
  }
}

/** No Set-Cookie that would hand out a session (an expiring one, Max-Age=0, is fine). */
export function expectNoSessionIssued(headers: Headers): void {
  const issued = headers
    .getSetCookie()
    .filter((line) => /session_token=|session_data=/.test(line) && !/max-age=0/i.test(line));
  expect(issued).toEqual([]);
}

export const PASSWORD = "correct horse battery";
