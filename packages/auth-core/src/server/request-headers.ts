/**
 * Fetch `Headers` over node's `rawHeaders`, filled only when something needs more than `get`/`has`.
 * Filling a Headers object validates and copies every header (~5 µs for a browser's request), and
 * the engine's hot paths only ever look up two or three names (Cookie, Origin, a forwarded-for
 * header). Lookups follow Fetch's rules exactly: case-insensitive names, repeated headers joined
 * with ", " (Cookie with "; "), values without leading or trailing whitespace. Everything else —
 * iteration, `getSetCookie`, changes, being copied into another Headers or a Request — fills the
 * real object first and then behaves as a plain Headers (`instanceof Headers` holds throughout).
 */

/** RFC 9110 token: what a Headers method accepts as a name (anything else throws, as in undici). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

export class RequestHeaders extends Headers {
  /** Name/value pairs not yet copied into the Headers object; null once it is filled. */
  #raw: string[] | null;

  constructor(rawHeaders: string[]) {
    super();
    this.#raw = rawHeaders;
  }

  override get(name: string): string | null {
    if (this.#raw === null) return super.get(name);
    return this.#lookup(checkName(name));
  }

  override has(name: string): boolean {
    if (this.#raw === null) return super.has(name);
    return this.#lookup(checkName(name)) !== null;
  }

  override append(name: string, value: string): void {
    this.#fill();
    super.append(name, value);
  }

  override set(name: string, value: string): void {
    this.#fill();
    super.set(name, value);
  }

  override delete(name: string): void {
    this.#fill();
    super.delete(name);
  }

  override getSetCookie(): string[] {
    this.#fill();
    return super.getSetCookie();
  }

  override forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    this.#fill();
    super.forEach(callback, thisArg);
  }

  override entries(): HeadersIterator<[string, string]> {
    this.#fill();
    return super.entries();
  }

  override keys(): HeadersIterator<string> {
    this.#fill();
    return super.keys();
  }

  override values(): HeadersIterator<string> {
    this.#fill();
    return super.values();
  }

  override [Symbol.iterator](): HeadersIterator<[string, string]> {
    this.#fill();
    return super[Symbol.iterator]();
  }

  /** A scan, not an index: a request has a dozen headers and the engine asks for two or three. */
  #lookup(name: string): string | null {
    const raw = this.#raw ?? [];
    let found: string | null = null;
    for (let index = 0; index + 1 < raw.length; index += 2) {
      const candidate = raw[index]!;
      if (candidate.length !== name.length || candidate.toLowerCase() !== name) continue;
      const value = normalizeValue(raw[index + 1]!);
      found = found === null ? value : `${found}${name === "cookie" ? "; " : ", "}${value}`;
    }
    return found;
  }

  #fill(): void {
    const raw = this.#raw;
    if (raw === null) return;
    this.#raw = null;
    for (let index = 0; index + 1 < raw.length; index += 2) super.append(raw[index]!, raw[index + 1]!);
  }
}

function checkName(name: string): string {
  if (!HEADER_NAME.test(name)) throw new TypeError(`Invalid header name: "${name}"`);
  return name.toLowerCase();
}

function isHttpWhitespace(code: number): boolean {
  return code === 9 || code === 10 || code === 13 || code === 32;
}

/** Fetch strips leading and trailing HTTP whitespace from values; node's parser leaves little of it. */
function normalizeValue(value: string): string {
  if (value.length === 0) return value;
  const edge = isHttpWhitespace(value.charCodeAt(0)) || isHttpWhitespace(value.charCodeAt(value.length - 1));
  return edge ? value.replace(EDGE_WHITESPACE, "") : value;
}
