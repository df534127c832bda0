import { describe, expect, expectTypeOf, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

/**
 * `auth.api` is typed from the endpoint definitions themselves: each method takes its endpoint's
 * body and query as the schemas accept them and resolves to its handler's result. The type checks
 * here fail `pnpm typecheck` (CI) when an endpoint's types stop flowing through; the calls check
 * that the typed result is what the endpoint really returns.
 */
let t: TestAuth | undefined;
const freshTestAuth = useFreshTestAuth();

describe("auth.api types", () => {
  it("signInEmail: typed body, typed result; the data is the sign-in answer", async () => {
    t = await freshTestAuth();
    await signUp(new TestBrowser(t.auth), { email: "ada@example.com", password: "correct horse battery" });
    type Input = NonNullable<Parameters<typeof t.auth.api.signInEmail>[0]>;
    expectTypeOf<NonNullable<Input["body"]>>().toMatchTypeOf<{ email: string; password: string }>();
    const { data, headers } = await t.auth.api.signInEmail({
      body: { email: "ada@example.com", password: "correct horse battery", rememberMe: false },
    });
    if ("twoFactorRedirect" in data) throw new Error("no second factor here");
    // No casts: `data.user.email` and `data.token` are known to the compiler.
    expectTypeOf(data.user.email).toEqualTypeOf<string>();
    expectTypeOf(data.token).toEqualTypeOf<string>();
    expect(data.user.email).toBe("ada@example.com");
    expect(typeof data.token).toBe("string");
    expect(headers.getSetCookie().some((line) => line.startsWith("tessera.session_token="))).toBe(true);
  });

  it("getSession: the session and user, or null", async () => {
    t = await freshTestAuth();
    const res = await signUp(new TestBrowser(t.auth), { email: "bo@example.com" });
    const cookie = res.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const { data } = await t.auth.api.getSession({ headers: { cookie } });
    expectTypeOf(data).toMatchTypeOf<{ session: { userId: string }; user: { email: string } } | null>();
    expectTypeOf(data).not.toBeAny();
    expect(data?.user.email).toBe("bo@example.com");
    expect(data?.session.userId).toBe(data?.user.id);
    expect((await t.auth.api.getSession({})).data).toBeNull();
  });

  it("a wrong or missing body does not compile, and is refused at run time all the same", async () => {
    t = await freshTestAuth();
    const call = t.auth.api.signInEmail({
      // @ts-expect-error email must be a string
      body: { email: 1, password: "correct horse battery" },
    });
    await expect(call).rejects.toMatchObject({ status: 400 });
    // @ts-expect-error the body is required: its schema has required fields
    await expect(t.auth.api.signInEmail({ headers: {} })).rejects.toMatchObject({ status: 400 });
    // An endpoint whose body is all optional (or absent) may be called without one.
    expect((await t.auth.api.getSession()).data).toBeNull();
    // @ts-expect-error no such method: a misspelt name fails to compile
    expect(t.auth.api.signInEmial).toBeUndefined();
  });

  it("redirects and pages: data is null for a redirect (see Location), the HTML for a page", () => {
    type Api = NonNullable<TestAuth>["auth"]["api"];
    type DataOf<Name extends keyof Api> = Awaited<ReturnType<Api[Name]>>["data"];
    // Always a redirect / always a page.
    expectTypeOf<DataOf<"callbackOAuth">>().toEqualTypeOf<null>();
    expectTypeOf<DataOf<"error">>().toEqualTypeOf<string>();
    // JSON without a callbackURL, a redirect with one: the null must be in the type.
    expectTypeOf<null>().toMatchTypeOf<DataOf<"verifyEmail">>();
    expectTypeOf<null>().toMatchTypeOf<DataOf<"deleteUserCallback">>();
    expectTypeOf<Exclude<DataOf<"verifyEmail">, null>>().toMatchTypeOf<{ status: true }>();
  });
});
