import type { IncomingMessage, ServerResponse } from "node:http";

/** HTTP plumbing of tests/support/oauth-server.ts: request recording, JSON answers, form_post pages. */

export interface RecordedRequest {
  providerId: string;
  /** Path after the provider prefix: "authorize", "token", "userinfo", "emails", "jwks", … */
  endpoint: string;
  method: string;
  url: string;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  /** Form-encoded (or JSON object) body fields. */
  form: Record<string, string>;
  rawBody: string;
}

/** Where the user agent goes after /authorize: a redirect (GET) or Apple's auto-posting form (POST). */
export interface AuthorizeResult {
  method: "GET" | "POST";
  /** GET: the full redirect URL with its query. POST: the form's action (the redirect_uri). */
  callbackURL: string;
  /** POST only: the form fields (code, state, user). */
  form: Record<string, string> | null;
  code: string | null;
  state: string | null;
  error: string | null;
  errorDescription: string | null;
  /** VK ID only. */
  deviceId: string | null;
  /** The JSON body when the server refused before redirecting (unknown client). */
  refusal: unknown;
}

export async function readBody(req: IncomingMessage, url: URL, providerId: string, endpoint: string) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const rawBody = Buffer.concat(chunks).toString();
  let form: Record<string, string> = {};
  if ((req.headers["content-type"] ?? "").includes("application/json") && rawBody) {
    const parsed = JSON.parse(rawBody) as Record<string, unknown>;
    form = Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, String(value)]));
  } else if (rawBody) {
    form = Object.fromEntries(new URLSearchParams(rawBody));
  }
  const headers: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(req.headers))
    headers[key] = Array.isArray(value) ? value.join(", ") : value;
  const recorded: RecordedRequest = {
    providerId,
    endpoint,
    method: req.method ?? "GET",
    url: url.toString(),
    query: Object.fromEntries(url.searchParams),
    headers,
    form,
    rawBody,
  };
  return recorded;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function unescapeHtml(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** Apple's `response_mode=form_post`: a page whose form posts itself to the redirect_uri. */
export function renderFormPost(res: ServerResponse, action: string, fields: Record<string, string>): void {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end(
    `<!doctype html><html><body onload="document.forms[0].submit()">` +
      `<form method="post" action="${escapeHtml(action)}">${inputs}</form></body></html>`,
  );
}

export async function parseAuthorizeResponse(response: Response): Promise<AuthorizeResult> {
  const empty = {
    code: null,
    state: null,
    error: null,
    errorDescription: null,
    deviceId: null,
    refusal: null,
  };
  const location = response.headers.get("location");
  if (response.status === 302 && location) {
    const params = new URL(location).searchParams;
    return {
      ...empty,
      method: "GET",
      callbackURL: location,
      form: null,
      code: params.get("code"),
      state: params.get("state"),
      error: params.get("error"),
      errorDescription: params.get("error_description"),
      deviceId: params.get("device_id"),
    };
  }
  const text = await response.text();
  const action = text.match(/<form method="post" action="([^"]*)">/)?.[1];
  if (response.status !== 200 || action === undefined) {
    let refusal: unknown = text;
    try {
      refusal = JSON.parse(text);
    } catch {}
    return { ...empty, method: "GET", callbackURL: "", form: null, refusal };
  }
  const form: Record<string, string> = {};
  for (const [, name = "", value = ""] of text.matchAll(
    /<input type="hidden" name="([^"]*)" value="([^"]*)">/g,
  )) {
    form[unescapeHtml(name)] = unescapeHtml(value);
  }
  return {
    ...empty,
    method: "POST",
    callbackURL: unescapeHtml(action),
    form,
    code: form.code ?? null,
    state: form.state ?? null,
    error: form.error ?? null,
    errorDescription: form.error_description ?? null,
  };
}
