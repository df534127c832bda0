import { describe, expect, it } from "vitest";
import { CACHE_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

const { t, openAuth } = useTestAuthPerTest();

function linkIn(text: string): string {
  const match = text.match(/https?:\/\/\S+/);
  if (!match) throw new Error(`no link in mail: ${text}`);
  return match[0];
}

async function markVerified(email: string): Promise<void> {
  await t.db.collection("users").updateOne({ email }, { $set: { emailVerified: true } });
}

const ADA = "ada@example.com";

describe("POST /send-verification-email, signed in", () => {
  it("mails a verify-email link for the caller's own unverified address; following it verifies", async () => {
    await openAuth();
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    expect(t.outbox.messages()).toHaveLength(0);
    const res = await browser.post("/send-verification-email", {
      email: "ADA@example.com",
      callbackURL: "/welcome",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    const mail = t.outbox.latestTo(ADA);
    expect(mail?.kind).toBe("verify-email");
    const link = new URL(linkIn(mail!.text));
    expect(link.origin + link.pathname).toBe("http://localhost:3000/api/auth/verify-email");
    expect(link.searchParams.get("callbackURL")).toBe("/welcome");
    expect(link.searchParams.get("token")).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect((await t.db.collection("users").findOne({ email: ADA }))?.emailVerified).toBe(false);

    const followed = await browser.get(link.toString());
    expect(followed.status).toBe(302);
    expect(followed.headers.get("location")).toBe("/welcome");
    expect((await t.db.collection("users").findOne({ email: ADA }))?.emailVerified).toBe(true);
  });

  it("refuses another address with 400 and sends nothing", async () => {
    await openAuth();
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    await signUp(new TestBrowser(t.auth), { email: "bob@example.com" });
    const res = await browser.post("/send-verification-email", { email: "bob@example.com" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "EMAIL_MISMATCH",
      message: "You can only send a verification email to your own email",
    });
    expect(t.outbox.messages()).toHaveLength(0);
  });

  it("refuses an already verified address with 400 and sends nothing", async () => {
    await openAuth();
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    await markVerified(ADA);
    const res = await browser.post("/send-verification-email", { email: ADA });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "EMAIL_ALREADY_VERIFIED",
      message: "You can only send a verification email to an unverified email",
    });
    expect(t.outbox.messages()).toHaveLength(0);
  });

  it("reads the verified state from the database, not from a stale cookie cache", async () => {
    await openAuth({ session: { cookieCache: { enabled: true } } });
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    expect(browser.cookies.has(CACHE_COOKIE)).toBe(true);
    await markVerified(ADA);
    const res = await browser.post("/send-verification-email", { email: ADA });
    expect(res.status).toBe(400);
    expect((res.body as { code: string }).code).toBe("EMAIL_ALREADY_VERIFIED");
    expect(t.outbox.messages()).toHaveLength(0);
  });

  it("uses the app's sendVerificationEmail hook instead of the mailer when given", async () => {
    const calls: { email: string; url: string; token: string }[] = [];
    await openAuth({
      mail: {
        sendVerificationEmail: ({ user, url, token }) => void calls.push({ email: user.email, url, token }),
      },
    });
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    const res = await browser.post("/send-verification-email", { email: ADA });
    expect(res.status).toBe(200);
    expect(t.outbox.messages()).toHaveLength(0);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.email).toBe(ADA);
    expect(new URL(calls[0]!.url).searchParams.get("token")).toBe(calls[0]!.token);
  });
});

describe("POST /send-verification-email, not signed in (no enumeration)", () => {
  it("answers the same for unknown, verified and unverified addresses; mails only the unverified one", async () => {
    await openAuth();
    await signUp(new TestBrowser(t.auth));
    await signUp(new TestBrowser(t.auth), { email: "vera@example.com" });
    await markVerified("vera@example.com");
    const anonymous = new TestBrowser(t.auth);
    const unverified = await anonymous.post("/send-verification-email", { email: ADA });
    const verified = await anonymous.post("/send-verification-email", { email: "vera@example.com" });
    const unknown = await anonymous.post("/send-verification-email", { email: "nobody@example.com" });
    for (const res of [unverified, verified, unknown]) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: true });
      expect([...res.headers.keys()].sort()).toEqual([...unverified.headers.keys()].sort());
    }
    expect(t.outbox.messages().map((m) => [m.to, m.kind])).toEqual([[ADA, "verify-email"]]);
    expect(t.outbox.latestTo("vera@example.com")).toBeNull();
    expect(t.outbox.latestTo("nobody@example.com")).toBeNull();
    expect(await t.db.collection("users").countDocuments()).toBe(2);
  });

  it("the anonymous link verifies the address", async () => {
    await openAuth();
    await signUp(new TestBrowser(t.auth));
    const anonymous = new TestBrowser(t.auth);
    await anonymous.post("/send-verification-email", { email: ADA });
    const res = await anonymous.get(linkIn(t.outbox.latestTo(ADA)!.text));
    expect(res.status).toBe(302);
    expect((await t.db.collection("users").findOne({ email: ADA }))?.emailVerified).toBe(true);
  });
});

describe("POST /send-verification-email, refusals", () => {
  it("answers 400 Verification email isn't enabled when verification is off, and sends nothing", async () => {
    await openAuth({ emailVerification: { enabled: false } });
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    const signedIn = await browser.post("/send-verification-email", { email: ADA });
    const anonymous = await new TestBrowser(t.auth).post("/send-verification-email", { email: ADA });
    for (const res of [signedIn, anonymous]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: "VERIFICATION_EMAIL_NOT_ENABLED",
        message: "Verification email isn't enabled",
      });
    }
    expect(t.outbox.messages()).toHaveLength(0);
  });

  it.each([["not-an-email"], ["a@b@example.com"], ["ada@example.com,eve@evil.io"], [""]])(
    "answers 400 Invalid email for %j",
    async (email) => {
      await openAuth();
      const res = await new TestBrowser(t.auth).post("/send-verification-email", { email });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "INVALID_EMAIL", message: "Invalid email" });
      expect(t.outbox.messages()).toHaveLength(0);
    },
  );

  it("answers 400 for an operator object instead of an email", async () => {
    await openAuth();
    await signUp(new TestBrowser(t.auth));
    const res = await new TestBrowser(t.auth).post("/send-verification-email", { email: { $ne: "" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid request" });
    expect(t.outbox.messages()).toHaveLength(0);
  });

  it.each([["https://evil.example/cb"], ["//evil.example"], ["javascript:alert(1)"]])(
    "answers 403 Invalid callbackURL for %s and sends nothing",
    async (callbackURL) => {
      await openAuth();
      const browser = new TestBrowser(t.auth);
      await signUp(browser);
      const signedIn = await browser.post("/send-verification-email", { email: ADA, callbackURL });
      const anonymous = await new TestBrowser(t.auth).post("/send-verification-email", {
        email: ADA,
        callbackURL,
      });
      for (const res of [signedIn, anonymous]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ code: "INVALID_CALLBACK_URL", message: "Invalid callbackURL" });
      }
      expect(t.outbox.messages()).toHaveLength(0);
    },
  );
});
