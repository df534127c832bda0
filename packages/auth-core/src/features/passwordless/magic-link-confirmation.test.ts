import { describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import { mailedSignIn, PASSWORDLESS } from "#test/passwordless.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

const EMAIL = "ada@example.com";
const INVALID_TOKEN = { code: "INVALID_TOKEN", message: "invalid token" };

const { t, openAuth } = useTestAuthPerTest();

async function requestLink() {
  const res = await new TestBrowser(t.auth).post("/sign-in/magic-link", { email: EMAIL });
  expect(res.status).toBe(200);
  return mailedSignIn(t, EMAIL);
}

describe("GET /magic-link/confirmation names the account of a live link, for the app's confirmation page", () => {
  it("answers the address the link was mailed to and spends nothing: the link signs in afterwards", async () => {
    await openAuth({ ...PASSWORDLESS, magicLink: { enabled: true, confirmURL: "/confirm" } });
    const { token } = await requestLink();
    const scanner = new TestBrowser(t.auth);
    for (let i = 0; i < 2; i++) {
      const res = await scanner.get(`/magic-link/confirmation?token=${token}`);
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { email: EMAIL } });
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    expect(await t.db.collection("sessions").countDocuments({})).toBe(0);
    const post = await new TestBrowser(t.auth).post("/magic-link/verify", { token });
    expect(post.status).toBe(200);
    expect(post.body).toMatchObject({ user: { email: EMAIL } });
  });

  it("a used, replaced or made-up token is INVALID_TOKEN, and the address is not told", async () => {
    await openAuth(PASSWORDLESS);
    const first = await requestLink();
    const second = await requestLink();
    const browser = new TestBrowser(t.auth);
    const replaced = await browser.get(`/magic-link/confirmation?token=${first.token}`);
    expect({ status: replaced.status, body: replaced.body }).toEqual({ status: 400, body: INVALID_TOKEN });
    expect((await browser.post("/magic-link/verify", { token: second.token })).status).toBe(200);
    const used = await browser.get(`/magic-link/confirmation?token=${second.token}`);
    expect({ status: used.status, body: used.body }).toEqual({ status: 400, body: INVALID_TOKEN });
    const madeUp = await browser.get(`/magic-link/confirmation?token=${"x".repeat(32)}`);
    expect({ status: madeUp.status, body: madeUp.body }).toEqual({ status: 400, body: INVALID_TOKEN });
  });

  it("does not exist while magic links are off", async () => {
    await openAuth({ emailOTP: { enabled: true } });
    const res = await new TestBrowser(t.auth).get(`/magic-link/confirmation?token=${"x".repeat(32)}`);
    expect(res.status).toBe(404);
  });
});
