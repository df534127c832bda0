import { beforeEach, describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import { TEST_SECRET, useFreshTestAuth, useTestAuthPerTest } from "#test/test-auth.ts";
import { signValue } from "../../packages/auth-core/src/crypto/signing.ts";
import { PASSWORD, sendRaw, snapshotDatabase } from "./helpers.ts";

/** Matrix D: forged, foreign and dead session cookies, and the attributes of the cookies we set. */
const { t, openAuth } = useTestAuthPerTest();
// Instances beside the file's own `t`, closed after their test.
const freshTestAuth = useFreshTestAuth();
let token: string;
beforeEach(async () => {
  await openAuth();
  const res = await signUp(new TestBrowser(t.auth), { email: "ada@example.com", password: PASSWORD });
  token = res.body.token!;
});

/** The engine's own signer: the tests below vary the secret and the value, not the construction. */
const sign = (value: string, secret: string) => signValue(value, secret);

async function getSessionWith(cookieValue: string) {
  return sendRaw(t.auth, "GET", "/get-session", { headers: { cookie: `${SESSION_COOKIE}=${cookieValue}` } });
}

function expectCleared(headers: Headers) {
  const line = headers.getSetCookie().find((l) => l.startsWith(`${SESSION_COOKIE}=`));
  expect(line).toBeDefined();
  expect(line).toMatch(new RegExp(`^${SESSION_COOKIE.replace(".", "\\.")}=;`));
  expect(line).toMatch(/Max-Age=0/);
}

describe("session cookies that must not authenticate (D4, D5, D10, D15)", () => {
  it("accepts the genuine cookie (control)", async () => {
    const res = await getSessionWith(sign(token, TEST_SECRET));
    expect(res.status).toBe(200);
    expect((res.json as { user: { email: string } }).user.email).toBe("ada@example.com");
  });

  it.each([
    ["a flipped signature character", (v: string) => v.slice(0, -1) + (v.endsWith("A") ? "B" : "A")],
    ["a truncated signature", (v: string) => v.slice(0, -5)],
    ["no signature", () => token],
    ["an empty signature", () => `${token}.`],
    ["a flipped token character", (v: string) => (v.startsWith("a") ? "b" : "a") + v.slice(1)],
    ["garbage", () => "%%%not-a-cookie"],
  ])("answers null and clears the cookie for %s", async (_name, tamper) => {
    const genuine = sign(token, TEST_SECRET);
    const before = await snapshotDatabase(t.db);
    const res = await getSessionWith(tamper(genuine));
    expect(res.status).toBe(200);
    expect(res.json).toBeNull();
    expectCleared(res.headers);
    expect(await snapshotDatabase(t.db)).toBe(before);
  });

  it("answers null for the right token signed with another secret", async () => {
    const res = await getSessionWith(sign(token, "another-secret-0123456789abcdef012345"));
    expect(res.json).toBeNull();
    expectCleared(res.headers);
  });

  it("answers null for a validly signed token that has no session (deleted session)", async () => {
    await t.db.collection("sessions").deleteMany({ token });
    const res = await getSessionWith(sign(token, TEST_SECRET));
    expect(res.json).toBeNull();
    expectCleared(res.headers);
  });

  it("answers null after sign-out for the old cookie (D10)", async () => {
    const browser = new TestBrowser(t.auth);
    await browser.post("/sign-in/email", { email: "ada@example.com", password: PASSWORD });
    const old = browser.cookies.get(SESSION_COOKIE)!;
    expect((await browser.post("/sign-out")).status).toBe(200);
    const res = await getSessionWith(old);
    expect(res.json).toBeNull();
    expectCleared(res.headers);
  });

  it("issues a new token at sign-in, never the planted one (fixation, D1)", async () => {
    const attacker = sign("A".repeat(32), TEST_SECRET);
    const browser = new TestBrowser(t.auth);
    browser.cookies.set(SESSION_COOKIE, attacker);
    const res = await browser.post<{ token: string }>("/sign-in/email", {
      email: "ada@example.com",
      password: PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(res.body.token).not.toBe("A".repeat(32));
    expect(browser.cookies.get(SESSION_COOKIE)).not.toBe(attacker);
    expect(await t.db.collection("sessions").countDocuments({ token: "A".repeat(32) })).toBe(0);
  });

  it("issues distinct 32-character tokens (D2)", async () => {
    const tokens = new Set<string>([token]);
    for (let i = 0; i < 5; i++) {
      const res = await new TestBrowser(t.auth).post<{ token: string }>("/sign-in/email", {
        email: "ada@example.com",
        password: PASSWORD,
      });
      expect(res.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
      tokens.add(res.body.token);
    }
    expect(tokens.size).toBe(6);
  });
});

describe("Set-Cookie attributes (D3, docs/decisions/)", () => {
  const attributesOf = (line: string) =>
    line
      .split(";")
      .slice(1)
      .map((part) => part.trim());

  it("over http: HttpOnly, SameSite=Lax, Path=/, a Max-Age of at most the session length, no Secure", async () => {
    const res = await new TestBrowser(t.auth).post("/sign-in/email", {
      email: "ada@example.com",
      password: PASSWORD,
    });
    const line = res.headers.getSetCookie().find((l) => l.startsWith(`${SESSION_COOKIE}=`))!;
    const attributes = attributesOf(line);
    expect(attributes).toEqual(expect.arrayContaining(["HttpOnly", "SameSite=Lax", "Path=/"]));
    expect(attributes).not.toContain("Secure");
    const maxAge = Number(attributes.find((a) => a.startsWith("Max-Age="))!.slice(8));
    expect(maxAge).toBeGreaterThan(7 * 86400 - 5);
    expect(maxAge).toBeLessThanOrEqual(7 * 86400);
    expect(line.length).toBeLessThan(4096);
  });

  it("over https: the __Secure- prefix and Secure, and the prefixed cookie authenticates", async () => {
    const secure = await freshTestAuth({ baseURL: "https://auth.example.com" });
    try {
      const browser = new TestBrowser(secure.auth, "https://auth.example.com");
      const res = await signUp(browser, { email: "ada@example.com", password: PASSWORD });
      const lines = res.headers.getSetCookie();
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        expect(line).toMatch(/^__Secure-tessera\./);
        expect(attributesOf(line)).toEqual(
          expect.arrayContaining(["Secure", "HttpOnly", "SameSite=Lax", "Path=/"]),
        );
      }
      const session = await browser.get<{ user: { email: string } }>("/get-session");
      expect(session.body.user.email).toBe("ada@example.com");
      // The unprefixed name is not read: a cookie planted over http cannot shadow the secure one.
      const plain = await sendRaw(secure.auth, "GET", "/get-session", {
        headers: { cookie: `tessera.session_token=${browser.cookies.get("__Secure-tessera.session_token")}` },
      });
      expect(plain.json).toBeNull();
    } finally {
      await secure.close();
    }
  });

  it("rememberMe false: a browser-session cookie without Max-Age", async () => {
    const res = await new TestBrowser(t.auth).post("/sign-in/email", {
      email: "ada@example.com",
      password: PASSWORD,
      rememberMe: false,
    });
    const line = res.headers.getSetCookie().find((l) => l.startsWith(`${SESSION_COOKIE}=`))!;
    expect(line).not.toMatch(/Max-Age/);
    expect(attributesOf(line)).toEqual(expect.arrayContaining(["HttpOnly", "SameSite=Lax", "Path=/"]));
  });
});
