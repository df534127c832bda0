import { type ProviderDeps, ProviderError } from "./types.ts";

/** Every call to a provider is bounded: a hanging provider fails the flow, not the server. */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;

/** No provider answer we read (tokens, profiles, discovery) comes near this; a larger one is refused unread. */
const MAX_PROVIDER_BODY_BYTES = 1_000_000;

/** Some providers refuse API calls without one (GitHub, Reddit). */
const USER_AGENT = "tessera-auth";

export interface ProviderRequest {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Sent form-encoded. */
  form?: Record<string, string>;
}

async function readBoundedText(response: Response): Promise<string> {
  if (!response.body) return "";
  if (Number(response.headers.get("content-length") ?? 0) > MAX_PROVIDER_BODY_BYTES) {
    await response.body.cancel();
    throw new Error("provider answer too large");
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_PROVIDER_BODY_BYTES) {
      await reader.cancel();
      throw new Error("provider answer too large");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function parseBody(text: string, contentType: string): unknown {
  if (contentType.includes("application/x-www-form-urlencoded"))
    return Object.fromEntries(new URLSearchParams(text));
  if (text.trim() === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Old token endpoints (Facebook, GitHub without Accept) may answer form-encoded as text/plain.
    return text.includes("=") && !text.includes("<") ? Object.fromEntries(new URLSearchParams(text)) : null;
  }
}

function errorFields(body: unknown): { error: string | null; description: string | null } {
  if (typeof body !== "object" || body === null) return { error: null, description: null };
  const record = body as Record<string, unknown>;
  const nested =
    typeof record.error === "object" && record.error !== null
      ? (record.error as Record<string, unknown>)
      : null;
  const error =
    typeof record.error === "string" ? record.error : typeof nested?.code === "string" ? nested.code : null;
  const description =
    typeof record.error_description === "string"
      ? record.error_description
      : typeof nested?.message === "string"
        ? nested.message
        : null;
  return { error, description };
}

/**
 * Calls a provider and returns its parsed body. Throws ProviderError on a network failure, a
 * timeout, or a non-2xx answer (carrying the provider's `error` and `error_description`). The
 * message names the URL's host and path, never a token or secret.
 */
export async function fetchProvider(deps: ProviderDeps, url: string | URL, request: ProviderRequest = {}) {
  const headers: Record<string, string> = {
    accept: "application/json",
    "user-agent": USER_AGENT,
    ...request.headers,
  };
  let body: string | undefined;
  if (request.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(request.form).toString();
  }
  const target = new URL(url);
  const where = `${target.host}${target.pathname}`;
  let response: Response;
  let text: string;
  try {
    response = await deps.fetch(target, {
      method: request.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
      redirect: "error",
      signal: AbortSignal.timeout(deps.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS),
    });
    text = await readBoundedText(response);
  } catch (cause) {
    throw new ProviderError(`provider request to ${where} failed`, null, null, { cause });
  }
  const parsed = parseBody(text, response.headers.get("content-type") ?? "");
  if (!response.ok) {
    const { error, description } = errorFields(parsed);
    throw new ProviderError(`provider answered ${response.status} at ${where}`, error, description);
  }
  return parsed;
}

/** The `error`/`error_description` a provider put in a 200 answer (GitHub's token endpoint does). */
export function providerErrorIn(body: unknown): { error: string; description: string | null } | null {
  const { error, description } = errorFields(body);
  return error === null || error === "ok" ? null : { error, description };
}
