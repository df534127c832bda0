import type { Auth } from "@tessera/auth-core";
import { type Db, ObjectId } from "mongodb";
import { TEST_ORIGIN } from "./test-auth.ts";

export interface CallResult<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  response: Response;
}

/**
 * A browser-like client over `auth.handler`: keeps cookies from Set-Cookie, sends them back, and sends
 * the trusted Origin on POSTs (as browsers do) unless told otherwise.
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly auth: Auth,
    private readonly origin: string | null = TEST_ORIGIN,
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  async request<T = unknown>(
    method: string,
    path: string,
    options: {
      body?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
      remoteAddress?: string;
    } = {},
  ): Promise<CallResult<T>> {
    const headers = new Headers(options.headers);
    if (this.cookies.size > 0 && !headers.has("cookie")) headers.set("cookie", this.cookieHeader());
    if (method !== "GET" && this.origin && !headers.has("origin")) headers.set("origin", this.origin);
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
    }
    const url = path.startsWith("http") ? path : `${TEST_ORIGIN}/api/auth${path}`;
    const response = await this.auth.handler(new Request(url, { method, headers, body }), {
      remoteAddress: options.remoteAddress ?? "127.0.0.1",
    });
    this.storeCookies(response.headers);
    const text = await response.clone().text();
    let parsed: unknown = text;
    if ((response.headers.get("content-type") ?? "").includes("json"))
      parsed = text ? JSON.parse(text) : null;
    return { status: response.status, body: parsed as T, headers: response.headers, response };
  }

  get<T = unknown>(path: string, options?: Parameters<TestBrowser["request"]>[2]) {
    return this.request<T>("GET", path, options);
  }
  post<T = unknown>(path: string, body?: unknown, options?: Parameters<TestBrowser["request"]>[2]) {
    return this.request<T>("POST", path, { ...options, body: body ?? {} });
  }

  private storeCookies(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attributes.some((a) => a.trim().toLowerCase() === "max-age=0");
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

export const SESSION_COOKIE = "tessera.session_token";
export const CACHE_COOKIE = "tessera.session_data";

/** Signs up (and so signs in, by default) a user through the HTTP handler. */
export async function signUp(
  browser: TestBrowser,
  overrides: { email?: string; password?: string; name?: string } = {},
): Promise<CallResult<{ token: string | null; user: { id: string; email: string } }>> {
  return browser.post("/sign-up/email", {
    name: overrides.name ?? "Ada Lovelace",
    email: overrides.email ?? "ada@example.com",
    password: overrides.password ?? "correct horse battery",
  });
}

export interface SignedUpUser {
  browser: TestBrowser;
  id: string;
  email: string;
}

/**
 * The one way a test signs a user up when it needs the user's browser and id: the browser (a fresh
 * one unless given) signs up — and so in — through the HTTP handler; anything but 200 fails the
 * test. `role` (an admin-area role) and `emailVerified` are then written straight to the user's row,
 * for tests whose subject is not how a user gets them.
 */
export async function signUpUser(
  t: { auth: Auth; db: Db },
  input: {
    email: string;
    password?: string;
    name?: string;
    role?: string;
    emailVerified?: boolean;
    browser?: TestBrowser;
  },
): Promise<SignedUpUser> {
  const browser = input.browser ?? new TestBrowser(t.auth);
  const res = await signUp(browser, input);
  if (res.status !== 200) throw new Error(`sign-up of ${input.email} answered ${res.status}`);
  const id = res.body.user.id;
  const set: Record<string, unknown> = {};
  if (input.role !== undefined) set.role = input.role;
  if (input.emailVerified !== undefined) set.emailVerified = input.emailVerified;
  if (Object.keys(set).length > 0)
    await t.db.collection("users").updateOne({ _id: ObjectId.createFromHexString(id) }, { $set: set });
  return { browser, id, email: input.email };
}
