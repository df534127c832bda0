import type { CookieAttributes } from "./cookies.ts";
import { parseCookieHeader, serializeCookie } from "./cookies.ts";

/** Request cookies in, Set-Cookie lines out. A later set of the same name replaces an earlier one. */
export class CookieJar {
  private readonly incoming: Map<string, string>;
  /** Made on the first set: most requests set no cookie. */
  private outgoing: Map<string, string> | null = null;
  private readonly defaults: CookieAttributes;

  constructor(cookieHeader: string | null, defaults: CookieAttributes) {
    this.incoming = parseCookieHeader(cookieHeader);
    this.defaults = defaults;
  }

  get(name: string): string | undefined {
    return this.incoming.get(name);
  }

  set(name: string, value: string, attributes?: CookieAttributes): void {
    this.outgoing ??= new Map();
    this.outgoing.set(name, serializeCookie(name, value, { ...this.defaults, ...attributes }));
  }

  delete(name: string): void {
    this.outgoing ??= new Map();
    this.outgoing.set(name, serializeCookie(name, "", { ...this.defaults, maxAge: 0 }));
  }

  setCookieLines(): string[] {
    return this.outgoing === null ? [] : [...this.outgoing.values()];
  }
}
