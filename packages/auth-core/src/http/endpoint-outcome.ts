import { type AnyEndpoint, ENDPOINT_RESULT, type EndpointResult } from "./define-endpoint.ts";

/*
 * What an endpoint answers, as both entries read it (run-endpoint.ts builds it; handler.ts writes
 * it over HTTP, api.ts hands it to server code), and the check that it is what the contract says.
 */

/**
 * `headers` is every response header as a Fetch Headers object (what auth.api returns). The HTTP
 * entry writes `setCookies` and `extraHeaders` instead: reading a Headers object back costs more than
 * the rest of a cookie-cached get-session.
 */
interface OutcomeHeaders {
  headers: Headers;
  /** Set-Cookie lines, one per cookie. */
  setCookies: string[];
  /** Headers set by the endpoint (ctx.setHeader, Location, Content-Type of a page), validated when set. */
  extraHeaders: Headers | null;
}

export type EndpointOutcome =
  | ({
      kind: "json";
      status: number;
      data: unknown;
      /** The data's JSON text when the handler already had it (`serializedJson`). */
      json?: string;
    } & OutcomeHeaders)
  | ({ kind: "redirect"; status: 302; location: string } & OutcomeHeaders)
  | ({ kind: "html"; status: number; html: string } & OutcomeHeaders);

/** A handler result that carries its own JSON text (see `serializedJson`). */
class SerializedJson {
  readonly json: string;
  readonly #build: (source: never) => unknown;
  readonly #source: unknown;

  constructor(json: string, build: (source: never) => unknown, source: unknown) {
    this.json = json;
    this.#build = build;
    this.#source = source;
  }

  build(): unknown {
    return (this.#build as (source: unknown) => unknown)(this.#source);
  }
}

/**
 * A handler result whose JSON text the handler already holds, e.g. signed in the cookie cache: over
 * HTTP `json` is sent as it is; `auth.api` (or anything reading the outcome's `data`) gets
 * `build(source)`, which must produce the value `json` serialises. A function and its argument
 * rather than a closure, so the result costs no allocation beyond itself. Typed as that value, so
 * the handler's declared result type is unchanged.
 */
export function serializedJson<S, T>(json: string, build: (source: S) => T, source: S): T {
  return new SerializedJson(json, build as (source: never) => unknown, source) as unknown as T;
}

/**
 * Set-Cookie lines and endpoint headers of an outcome. `headers` (all of them as one Fetch Headers,
 * what auth.api returns) is built on first read: the HTTP entry never reads it, and building a
 * Headers object on every request was a measurable part of a cookie-cached get-session.
 */
class LazyOutcomeHeaders implements OutcomeHeaders {
  readonly setCookies: string[];
  readonly extraHeaders: Headers | null;
  #headers: Headers | null = null;

  constructor(setCookies: string[], extraHeaders: Headers | null) {
    this.setCookies = setCookies;
    this.extraHeaders = extraHeaders;
  }

  get headers(): Headers {
    this.#headers ??= toHeaders(this.setCookies, this.extraHeaders);
    return this.#headers;
  }
}

/** The json outcome of a handler's data. */
class JsonOutcome extends LazyOutcomeHeaders {
  readonly kind = "json";
  readonly status = 200;
  readonly data: unknown;

  constructor(data: unknown, setCookies: string[], extraHeaders: Headers | null) {
    super(setCookies, extraHeaders);
    this.data = data;
  }
}

/** The json outcome of a serialized result: `data` is built on first read only. */
class SerializedOutcome extends LazyOutcomeHeaders {
  readonly kind = "json";
  readonly status = 200;
  readonly json: string;
  readonly #result: SerializedJson;
  #data: { value: unknown } | null = null;

  constructor(result: SerializedJson, setCookies: string[], extraHeaders: Headers | null) {
    super(setCookies, extraHeaders);
    this.json = result.json;
    this.#result = result;
  }

  get data(): unknown {
    this.#data ??= { value: this.#result.build() };
    return this.#data.value;
  }
}

function isEndpointResult(value: unknown): value is EndpointResult {
  return typeof value === "object" && value !== null && ENDPOINT_RESULT in value;
}

/**
 * The outcome of a handler's result with the cookies and headers it set. Every outcome is built
 * with all its fields at once: same-shaped objects stay cheap to read.
 */
export function toOutcome(
  result: unknown,
  setCookies: string[],
  extraHeaders: Headers | null,
): EndpointOutcome {
  // Checked first: a serialized result (a cookie-cache hit) is the hot case.
  if (result instanceof SerializedJson) return new SerializedOutcome(result, setCookies, extraHeaders);
  if (!isEndpointResult(result)) return new JsonOutcome(result ?? null, setCookies, extraHeaders);
  // Headers.set validates at once (a CR/LF in a value throws here, not later in a transport).
  const extra = extraHeaders ?? new Headers();
  if (result.kind === "redirect") extra.set("location", result.location);
  else extra.set("content-type", result.contentType ?? "text/html; charset=utf-8");
  const headers = toHeaders(setCookies, extra);
  if (result.kind === "redirect") {
    const location = result.location;
    return { kind: "redirect", status: 302, location, headers, setCookies, extraHeaders: extra };
  }
  return { kind: "html", status: result.status, html: result.html, headers, setCookies, extraHeaders: extra };
}

/**
 * `advanced.checkResponses`: the handler's result must be what its contract promises — its JSON
 * response (dates as Date), a redirect only where the contract allows one, a page only for an html
 * contract. A mismatch is a defect of the endpoint, so it fails loudly rather than reaching a client.
 */
export function assertResultMatchesContract(endpoint: AnyEndpoint, result: unknown): void {
  const contract = endpoint.contract;
  const answers = contract.answers ?? "json";
  let data: unknown = result ?? null;
  if (isEndpointResult(result)) {
    if (result.kind === "redirect" && answers.endsWith("-or-redirect")) return;
    if (result.kind === "html" && (answers.startsWith("html") || answers === "xml")) data = result.html;
    else throw new Error(`endpoint ${endpoint.name} answered a ${result.kind}, its contract says ${answers}`);
  } else if (result instanceof SerializedJson) {
    data = result.build();
  }
  const checked = contract.response.safeParse(data);
  if (!checked.success) {
    throw new Error(
      `endpoint ${endpoint.name} answered data its contract does not allow: ${JSON.stringify(checked.error.issues)}`,
    );
  }
}

/** Every response header as one Fetch Headers object (what auth.api and a failure carry). */
export function toHeaders(setCookies: readonly string[], extraHeaders: Headers | null): Headers {
  // An empty Headers is nearly free; copying and appending validate each entry.
  const headers = extraHeaders ? new Headers(extraHeaders) : new Headers();
  for (const line of setCookies) headers.append("set-cookie", line);
  return headers;
}

/** Headers (Set-Cookie) gathered before an endpoint failed, when any. */
export function headersOfFailure(error: unknown): Headers | undefined {
  return (error as { responseHeaders?: Headers } | null)?.responseHeaders;
}
