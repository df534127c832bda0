import type {
  AuthClientOptions,
  CallOptions,
  ClientError,
  ClientResult,
  RequestContext,
  RetryOptions,
} from "./types.ts";

export type Method = "GET" | "POST";

/** One HTTP call of a method: `{ data, error }`, retries, hooks. Navigation and signals are the caller's. */
export type Send = (
  method: Method,
  path: string,
  input: Record<string, unknown> | undefined,
  options: CallOptions | undefined,
) => Promise<{ result: ClientResult<unknown>; response: Response | null }>;

/**
 * Dates travel as ISO strings and are revived by key — the contracts' date fields are all named
 * `…At` or `banExpires` — so that the client's results have the server's types (docs/client.md "Dates").
 */
const DATE_KEY = /(?:At|Expires)$/;
const ISO_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,3})?Z$/;

function reviveDate(key: string, value: unknown): unknown {
  return typeof value === "string" && DATE_KEY.test(key) && ISO_DATE.test(value) ? new Date(value) : value;
}

/** `reviveDate` over a value that did not come through JSON.parse (hydrated data). */
export function reviveDates<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), reviveDate) as T;
}

function retryDelay(policy: RetryOptions, retry: number): number {
  if (policy.type === "linear") return policy.delay ?? 1000;
  return Math.min(policy.maxDelay, policy.baseDelay * 2 ** retry);
}

/**
 * Whether a failed attempt may be sent again. A GET reads only, so network errors, 5xx and 429 are
 * retried. A POST is retried only when the server certainly did not act on it: a 429 (the rate
 * limit answers before the endpoint runs) or a refused connection; a 5xx or a connection lost
 * mid-request may have changed something, and sending it twice could do it twice.
 */
function isRetryable(method: Method, status: number | null, cause: unknown): boolean {
  if (status === 429) return true;
  if (method === "GET") return status === null || status >= 500;
  return status === null && (cause as { cause?: { code?: string } })?.cause?.code === "ECONNREFUSED";
}

/** X-Retry-After (seconds) of a 429, in milliseconds; 0 when absent. */
function retryAfterMs(response: Response | null): number {
  const seconds = Number(response?.headers.get("x-retry-after"));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

function networkError(error: unknown): ClientError {
  return {
    status: 0,
    code: "NETWORK_ERROR",
    message: error instanceof Error ? error.message : String(error),
  };
}

async function readError(response: Response): Promise<ClientError> {
  const text = await response.text().catch(() => "");
  let body: Record<string, unknown> | null = null;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {}
  if (body && typeof body.code === "string" && typeof body.message === "string")
    return {
      ...body,
      status: response.status,
      code: body.code as ClientError["code"],
      message: body.message,
    };
  return {
    status: response.status,
    code: "UNKNOWN_ERROR",
    message: response.statusText || text.slice(0, 200),
  };
}

/**
 * A success's body: JSON (dates revived), null when empty, the text itself when it is not JSON — a
 * json-or-redirect endpoint given a callbackURL answers a redirect, which fetch follows to a page.
 */
function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text, reviveDate);
  } catch {
    return text;
  }
}

function appendQuery(url: string, query: Record<string, unknown> | undefined): string {
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== null) params.append(key, String(value));
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

/** The API's base URL: `baseURL + basePath`, or the base path alone (relative to the page). */
function apiBase(options: AuthClientOptions): string {
  const basePath = options.basePath ?? "/api/auth";
  return options.baseURL ? options.baseURL.replace(/\/+$/, "") + basePath : basePath;
}

/**
 * The header naming the client's `organizationId` on every request; the server reads the same name
 * (http/organization-header.ts — the client imports nothing of the server).
 */
const ORGANIZATION_HEADER = "x-tessera-organization";

export function createSend(options: AuthClientOptions): Send {
  const base = apiBase(options);
  const hooks = options.fetchOptions ?? {};
  return async (method, path, input, call = {}) => {
    const url = appendQuery(base + path, { ...(method === "GET" ? input : undefined), ...call.query });
    if (url.startsWith("/") && typeof location === "undefined")
      throw new Error("tessera client: set baseURL to call the API from outside a browser");
    const headers = new Headers(hooks.headers);
    if (options.organizationId !== undefined) headers.set(ORGANIZATION_HEADER, options.organizationId);
    for (const [name, value] of new Headers(call.headers)) headers.set(name, value);
    const init: RequestContext["init"] = { method, headers, credentials: "include", signal: call.signal };
    if (method === "POST") {
      headers.set("content-type", "application/json");
      init.body = JSON.stringify(input ?? {});
    }
    const request: RequestContext = { path, url, init };
    await hooks.onRequest?.(request);
    const fetchImpl = hooks.customFetchImpl ?? fetch;
    const policy = call.retry === false ? undefined : (call.retry ?? hooks.retry);
    for (let attempt = 0; ; attempt++) {
      let response: Response | null = null;
      let failure: unknown = null;
      try {
        response = await fetchImpl(request.url, request.init);
      } catch (error) {
        failure = error;
      }
      if (response) await hooks.onResponse?.({ request, response });
      if (response?.ok) {
        const data = parseBody(await response.text());
        await hooks.onSuccess?.({ request, response, data });
        await call.onSuccess?.({ request, response, data });
        return { result: { data, error: null }, response };
      }
      const canRetry =
        policy !== undefined &&
        attempt < policy.attempts &&
        !call.signal?.aborted &&
        isRetryable(method, response?.status ?? null, failure);
      if (canRetry) {
        await response?.body?.cancel();
        await sleep(Math.max(retryDelay(policy, attempt), retryAfterMs(response)), call.signal);
        continue;
      }
      const error = response ? await readError(response) : networkError(failure);
      await hooks.onError?.({ request, response, error });
      await call.onError?.({ request, response, error });
      return { result: { data: null, error }, response };
    }
  };
}
