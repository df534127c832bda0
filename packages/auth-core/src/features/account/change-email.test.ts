import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

const { t, openAuth } = useTestAuthPerTest();

const ADA = "ada@example.com";
const NEW = "ada.new@example.com";
/**
 * Better Auth's flow, which most tests here are about: the current address's link moves the address
 * (and an unverified user's moves at once). Tessera's default is verifyNewEmailFirst (below).
 */
const ENABLED = { user: { changeEmail: { enabled: true, verifyNewEmailFirst: false } } };

function latestLink(email: string): string {
  const mail = t.outbox.latestTo(email);
  if (!mail) throw new Error(`no mail to ${email}`);
  return mail.text.match(/https?:\/\/\S+/)![0];
}

async function userDoc(id: unknown) {
  return t.db.collection("users").findOne({ _id: id as never });
}

async function signedInAda(verified: boolean): Promise<{ browser: TestBrowser; id: unknown }> {
  const browser = new TestBrowser(t.auth);
  await signUp(browser);
  if (verified) await t.db.collection("users").updateOne({ email: ADA }, { $set: { emailVerified: true } });
  const doc = await t.db.collection("users").findOne({ email: ADA });
  return { browser, id: doc!._id };
}

describe("POST /change-email, verified user (the current address confirms, then the address moves)", () => {
  it("runs the full flow: mail to the old address, move to unverified, verify the new address", async () => {
    await openAuth(ENABLED);
    const { browser, id } = await signedInAda(true);
    const res = await browser.post("/change-email", {
      newEmail: "  Ada.NEW@Example.com ",
      callbackURL: "/settings",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    // Nothing changes until the link is followed; the mail goes to the CURRENT address only.
    expect(await userDoc(id)).toMatchObject({ email: ADA, emailVerified: true });
    expect(t.outbox.messages().map((m) => [m.to, m.kind])).toEqual([[ADA, "change-email"]]);
    expect(t.outbox.latestTo(ADA)!.text).toContain(NEW);

    const confirm = await browser.get(latestLink(ADA));
    expect(confirm.status).toBe(302);
    expect(confirm.headers.get("location")).toBe("/settings");
    expect(await userDoc(id)).toMatchObject({ email: NEW, emailVerified: false });
    // The verified old address is told where the account went.
    expect(t.outbox.latestTo(ADA)?.kind).toBe("email-changed");
    expect(t.outbox.latestTo(ADA)?.text).toContain(`was changed to ${NEW}.`);
    const newMail = t.outbox.latestTo(NEW);
    expect(newMail?.kind).toBe("verify-email");
    const session = await browser.get<{ user: { email: string } }>("/get-session");
    expect(session.body.user.email).toBe(NEW);

    // The new mailbox's link verifies the new address.
    const verify = await new TestBrowser(t.auth).get(latestLink(NEW));
    expect(verify.status).toBe(302);
    expect(verify.headers.get("location")).toBe("/settings");
    expect(await userDoc(id)).toMatchObject({ email: NEW, emailVerified: true });
    expect(await t.db.collection("users").countDocuments()).toBe(1);
  });

  it("the confirmation link works once: a replay answers user_not_found and changes nothing", async () => {
    await openAuth(ENABLED);
    const { browser, id } = await signedInAda(true);
    await browser.post("/change-email", { newEmail: NEW });
    const link = new URL(latestLink(ADA));
    link.searchParams.delete("callbackURL");
    expect((await browser.get(link.toString())).status).toBe(200);
    const replay = await browser.get(link.toString());
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ code: "VERIFICATION_USER_NOT_FOUND", message: "user_not_found" });
    expect(await userDoc(id)).toMatchObject({ email: NEW, emailVerified: false });
  });

  it("the confirmation link followed by another signed-in user answers unauthorized and changes nothing", async () => {
    await openAuth(ENABLED);
    const { browser, id } = await signedInAda(true);
    await browser.post("/change-email", { newEmail: NEW });
    const eve = new TestBrowser(t.auth);
    await signUp(eve, { email: "eve@example.com" });
    const link = new URL(latestLink(ADA));
    const redirected = await eve.get(link.toString());
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get("location")).toBe("/?error=unauthorized");
    link.searchParams.delete("callbackURL");
    const json = await eve.get(link.toString());
    expect(json.status).toBe(401);
    expect(json.body).toEqual({ code: "VERIFICATION_UNAUTHORIZED", message: "unauthorized" });
    expect(await userDoc(id)).toMatchObject({ email: ADA, emailVerified: true });
    expect(t.outbox.latestTo(NEW)).toBeNull();
  });

  it("an old-address link expired after 3601 s moves nothing", async () => {
    await openAuth(ENABLED);
    const { browser, id } = await signedInAda(true);
    await browser.post("/change-email", { newEmail: NEW, callbackURL: "/settings" });
    t.advance(3601);
    const res = await browser.get(latestLink(ADA));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/settings?error=token_expired");
    expect(await userDoc(id)).toMatchObject({ email: ADA, emailVerified: true });
  });

  it("when the new address was taken meanwhile, following the link fails and nothing moves", async () => {
    await openAuth(ENABLED);
    const { browser, id } = await signedInAda(true);
    await browser.post("/change-email", { newEmail: NEW, callbackURL: "/settings" });
    await signUp(new TestBrowser(t.auth), { email: NEW });
    const redirected = await browser.get(latestLink(ADA));
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get("location")).toBe("/settings?error=email_can_not_be_updated");
    const link = new URL(latestLink(ADA));
    link.searchParams.delete("callbackURL");
    const json = await browser.get(link.toString());
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ code: "EMAIL_CAN_NOT_BE_UPDATED", message: "Couldn't update your email" });
    expect(await userDoc(id)).toMatchObject({ email: ADA, emailVerified: true });
    expect(await t.db.collection("users").countDocuments({ email: NEW })).toBe(1);
  });

  it("two users racing to the same address through their links end with exactly one owner", async () => {
    await openAuth(ENABLED);
    const ada = await signedInAda(true);
    const bob = new TestBrowser(t.auth);
    await signUp(bob, { email: "bob@example.com" });
    await t.db.collection("users").updateOne({ email: "bob@example.com" }, { $set: { emailVerified: true } });
    await ada.browser.post("/change-email", { newEmail: NEW });
    await bob.post("/change-email", { newEmail: NEW });
    const [a, b] = await Promise.all([
      ada.browser.get(latestLink(ADA)),
      bob.get(latestLink("bob@example.com")),
    ]);
    expect([a.headers.get("location"), b.headers.get("location")].sort()).toEqual([
      "/",
      "/?error=email_can_not_be_updated",
    ]);
    expect(await t.db.collection("users").countDocuments({ email: NEW })).toBe(1);
    expect(await t.db.collection("users").countDocuments()).toBe(2);
  });
});

describe("one change link, many clicks", () => {
  it("5 concurrent clicks on a change link move the address once and mail the new address once", async () => {
    await openAuth(ENABLED);
    const { browser, id } = await signedInAda(true);
    await browser.post("/change-email", { newEmail: NEW });
    const link = latestLink(ADA);
    const results = await Promise.all(Array.from({ length: 5 }, () => new TestBrowser(t.auth).get(link)));
    const locations = results.map((r) => r.headers.get("location"));
    expect(locations.filter((l) => l === "/")).toHaveLength(1);
    expect(await userDoc(id)).toMatchObject({ email: NEW, emailVerified: false });
    expect(t.outbox.messages().filter((m) => m.to === NEW)).toHaveLength(1);
  });
});

describe("POST /change-email, unverified user", () => {
  it("moves the address at once, keeps it unverified, and mails a verification link to the new address", async () => {
    await openAuth(ENABLED);
    const { browser, id } = await signedInAda(false);
    const res = await browser.post("/change-email", { newEmail: "ADA.new@example.com" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    expect(await userDoc(id)).toMatchObject({ email: NEW, emailVerified: false });
    // The replaced address hears of the move; the new one gets its verification link.
    expect(t.outbox.messages().map((m) => [m.to, m.kind])).toEqual([
      [ADA, "email-changed"],
      [NEW, "verify-email"],
    ]);
    // The unverified old address may be a stranger's typo: it is told of a change, not the new address.
    expect(t.outbox.latestTo(ADA)?.text).toContain("was changed to another address.");
    expect(t.outbox.latestTo(ADA)?.text).not.toContain(NEW);
    const session = await browser.get<{ user: { email: string } }>("/get-session");
    expect(session.body.user.email).toBe(NEW);
    const verify = await browser.get(latestLink(NEW));
    expect(verify.status).toBe(302);
    expect(await userDoc(id)).toMatchObject({ email: NEW, emailVerified: true });
  });

  it("hands the notice to the app's sendEmailChangedNotice mail hook instead, when given", async () => {
    const notices: { user: { email: string }; newEmail: string | null }[] = [];
    await openAuth({
      ...ENABLED,
      mail: { sendEmailChangedNotice: (data) => void notices.push(data) },
    });
    const { browser, id } = await signedInAda(false);
    expect((await browser.post("/change-email", { newEmail: NEW })).status).toBe(200);
    // Ada's address was never verified: the hook is not told where the account went.
    expect(notices).toEqual([
      { user: { id: String(id), email: ADA, name: expect.any(String) }, newEmail: null },
    ]);
    expect(t.outbox.messages().map((m) => m.kind)).toEqual(["verify-email"]);
  });

  it("a verification link of the old address verifies nothing once the address moved (E9)", async () => {
    await openAuth(ENABLED);
    const { browser, id } = await signedInAda(false);
    await browser.post("/send-verification-email", { email: ADA });
    const oldLink = new URL(latestLink(ADA));
    oldLink.searchParams.delete("callbackURL");
    await browser.post("/change-email", { newEmail: NEW });
    const res = await browser.get(oldLink.toString());
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "VERIFICATION_USER_NOT_FOUND", message: "user_not_found" });
    expect(await userDoc(id)).toMatchObject({ email: NEW, emailVerified: false });
  });

  it("the new mailbox's link never signs anyone in, even with autoSignInAfterVerification (#7196)", async () => {
    await openAuth({ ...ENABLED, emailVerification: { autoSignInAfterVerification: true } });
    const { browser, id } = await signedInAda(false);
    await browser.post("/change-email", { newEmail: NEW });
    const stranger = new TestBrowser(t.auth);
    const res = await stranger.get(latestLink(NEW));
    expect(res.status).toBe(302);
    expect(await userDoc(id)).toMatchObject({ email: NEW, emailVerified: true });
    expect(stranger.cookies.size).toBe(0);
    expect(await t.db.collection("sessions").countDocuments({ userId: id })).toBe(1);
  });

  it("two users racing to the same address end with exactly one owner", async () => {
    await openAuth(ENABLED);
    const ada = await signedInAda(false);
    const bob = new TestBrowser(t.auth);
    await signUp(bob, { email: "bob@example.com" });
    const results = await Promise.all([
      ada.browser.post("/change-email", { newEmail: NEW }),
      bob.post("/change-email", { newEmail: NEW }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const loser = results.find((r) => r.status === 400)!;
    expect(loser.body).toEqual({ code: "EMAIL_CAN_NOT_BE_UPDATED", message: "Couldn't update your email" });
    expect(await t.db.collection("users").countDocuments({ email: NEW })).toBe(1);
    expect(await t.db.collection("users").countDocuments()).toBe(2);
  });
});

describe("POST /change-email with the cookie cache on", () => {
  const CACHED = { ...ENABLED, session: { cookieCache: { enabled: true } } };

  it("the cached session shows the moved address at once (direct move)", async () => {
    await openAuth(CACHED);
    const { browser } = await signedInAda(false);
    await browser.post("/change-email", { newEmail: NEW });
    const session = await browser.get<{ user: { email: string } }>("/get-session");
    expect(session.body.user.email).toBe(NEW);
  });

  it("the cached session shows the moved address, then its verification, after each link", async () => {
    await openAuth(CACHED);
    const { browser } = await signedInAda(true);
    // The cache was written at sign-up, before the test marked Ada verified: re-read it from the database.
    await browser.get("/get-session?disableCookieCache=true");
    await browser.post("/change-email", { newEmail: NEW });
    await browser.get(latestLink(ADA));
    const moved = await browser.get<{ user: { email: string; emailVerified: boolean } }>("/get-session");
    expect(moved.body.user).toMatchObject({ email: NEW, emailVerified: false });
    await browser.get(latestLink(NEW));
    const verified = await browser.get<{ user: { email: string; emailVerified: boolean } }>("/get-session");
    expect(verified.body.user).toMatchObject({ email: NEW, emailVerified: true });
  });
});

describe("POST /change-email with verifyNewEmailFirst (#7196 hardening)", () => {
  const STRICT = { user: { changeEmail: { enabled: true, verifyNewEmailFirst: true } } };

  it("is the default: an unverified user's address does not move until the new address confirms", async () => {
    await openAuth({ user: { changeEmail: { enabled: true } } });
    const { browser, id } = await signedInAda(false);
    const res = await browser.post("/change-email", { newEmail: NEW });
    expect(res.status).toBe(200);
    // Nothing moved: the new address is not held by this account until its mailbox answers …
    expect(await userDoc(id)).toMatchObject({ email: ADA, emailVerified: false });
    expect(await t.db.collection("users").countDocuments({ email: NEW })).toBe(0);
    expect(t.outbox.latestTo(NEW)?.kind).toBe("verify-email");
    // … so its owner can still sign up with it, and the account's link then moves nothing.
    expect((await signUp(new TestBrowser(t.auth), { email: NEW, password: "another staple" })).status).toBe(
      200,
    );
    const link = await new TestBrowser(t.auth).get(latestLink(NEW));
    expect(link.status).toBe(302);
    expect(await userDoc(id)).toMatchObject({ email: ADA });
    expect(await t.db.collection("users").countDocuments({ email: NEW })).toBe(1);
  });

  it("verified user: old address confirms, then the new one; only then the address moves, verified", async () => {
    await openAuth(STRICT);
    const { browser, id } = await signedInAda(true);
    await browser.post("/change-email", { newEmail: NEW });
    expect(t.outbox.latestTo(ADA)?.kind).toBe("change-email");
    await browser.get(latestLink(ADA));
    // A typo'd address gets a link, but the account is untouched until that mailbox answers.
    expect(await userDoc(id)).toMatchObject({ email: ADA, emailVerified: true });
    expect(t.outbox.latestTo(NEW)?.kind).toBe("verify-email");
    const res = await new TestBrowser(t.auth).get(latestLink(NEW));
    expect(res.status).toBe(302);
    expect(await userDoc(id)).toMatchObject({ email: NEW, emailVerified: true });
  });

  it("the old address's confirmation link works once: replays and concurrent clicks mail the new address once", async () => {
    await openAuth(STRICT);
    const { browser, id } = await signedInAda(true);
    await browser.post("/change-email", { newEmail: NEW });
    const link = new URL(latestLink(ADA));
    link.searchParams.delete("callbackURL");
    const clicks = await Promise.all(
      Array.from({ length: 5 }, () => new TestBrowser(t.auth).get(link.toString())),
    );
    expect(clicks.map((res) => res.status).sort()).toEqual([200, 401, 401, 401, 401]);
    const replay = await browser.get(link.toString());
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ code: "VERIFICATION_USER_NOT_FOUND", message: "user_not_found" });
    expect(t.outbox.messages().filter((m) => m.to === NEW)).toHaveLength(1);
    expect(await userDoc(id)).toMatchObject({ email: ADA, emailVerified: true });
    // The one mail to the new address still completes the change.
    await new TestBrowser(t.auth).get(latestLink(NEW));
    expect(await userDoc(id)).toMatchObject({ email: NEW, emailVerified: true });
  });

  it("unverified user: nothing moves until the new address confirms", async () => {
    await openAuth(STRICT);
    const { browser, id } = await signedInAda(false);
    await browser.post("/change-email", { newEmail: NEW });
    expect(await userDoc(id)).toMatchObject({ email: ADA, emailVerified: false });
    expect(t.outbox.messages().map((m) => [m.to, m.kind])).toEqual([[NEW, "verify-email"]]);
    await browser.get(latestLink(NEW));
    expect(await userDoc(id)).toMatchObject({ email: NEW, emailVerified: true });
  });
});

describe("POST /change-email, refusals", () => {
  it("answers 400 Change email is disabled by default", async () => {
    await openAuth();
    const { browser, id } = await signedInAda(true);
    const res = await browser.post("/change-email", { newEmail: NEW });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "CHANGE_EMAIL_DISABLED", message: "Change email is disabled" });
    expect(await userDoc(id)).toMatchObject({ email: ADA });
    expect(t.outbox.messages()).toHaveLength(0);
  });

  it("answers 401 without a session", async () => {
    await openAuth(ENABLED);
    const res = await new TestBrowser(t.auth).post("/change-email", { newEmail: NEW });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "UNAUTHORIZED", message: "unauthorized" });
  });

  it("answers 403 Session is not fresh for a session older than the fresh age (E11)", async () => {
    await openAuth({ ...ENABLED, session: { freshAge: 60 } });
    const { browser, id } = await signedInAda(true);
    t.advance(61);
    const res = await browser.post("/change-email", { newEmail: NEW });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "SESSION_NOT_FRESH", message: "Session is not fresh" });
    expect(await userDoc(id)).toMatchObject({ email: ADA });
    expect(t.outbox.messages()).toHaveLength(0);
  });

  it("answers 400 Email is the same, whatever the case", async () => {
    await openAuth(ENABLED);
    const { browser } = await signedInAda(false);
    const res = await browser.post("/change-email", { newEmail: "ADA@Example.com" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "EMAIL_IS_THE_SAME", message: "Email is the same" });
    expect(t.outbox.messages()).toHaveLength(0);
  });

  it.each([[false], [true]])(
    "answers 400 Couldn't update your email for another user's address (verified %s)",
    async (verified) => {
      await openAuth(ENABLED);
      const { browser, id } = await signedInAda(verified);
      await signUp(new TestBrowser(t.auth), { email: "bob@example.com" });
      const res = await browser.post("/change-email", { newEmail: "Bob@example.com" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "EMAIL_CAN_NOT_BE_UPDATED", message: "Couldn't update your email" });
      expect(await userDoc(id)).toMatchObject({ email: ADA, emailVerified: verified });
      expect(await t.db.collection("users").countDocuments({ email: "bob@example.com" })).toBe(1);
      expect(t.outbox.messages()).toHaveLength(0);
    },
  );

  it.each([["not-an-email"], ["a@x.io,b@y.io"], [""]])(
    "answers 400 Invalid email for %j",
    async (newEmail) => {
      await openAuth(ENABLED);
      const { browser, id } = await signedInAda(false);
      const res = await browser.post("/change-email", { newEmail });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "INVALID_EMAIL", message: "Invalid email" });
      expect(await userDoc(id)).toMatchObject({ email: ADA });
    },
  );

  it("answers 400 for an operator object or an extra field, changing nothing", async () => {
    await openAuth(ENABLED);
    const { browser, id } = await signedInAda(false);
    for (const body of [{ newEmail: { $ne: "" } }, { newEmail: NEW, emailVerified: true }]) {
      const res = await browser.post("/change-email", body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "VALIDATION_ERROR" });
    }
    expect(await userDoc(id)).toMatchObject({ email: ADA, emailVerified: false });
    expect(t.outbox.messages()).toHaveLength(0);
  });

  it("answers 403 Invalid callbackURL for an untrusted callback and sends nothing", async () => {
    await openAuth(ENABLED);
    const { browser, id } = await signedInAda(true);
    const res = await browser.post("/change-email", {
      newEmail: NEW,
      callbackURL: "https://evil.example/cb",
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "INVALID_CALLBACK_URL", message: "Invalid callbackURL" });
    expect(await userDoc(id)).toMatchObject({ email: ADA });
    expect(t.outbox.messages()).toHaveLength(0);
  });

  it("uses the app's sendChangeEmailVerification hook for the current-address mail", async () => {
    const calls: { email: string; newEmail: string; url: string }[] = [];
    await openAuth({
      ...ENABLED,
      mail: {
        sendChangeEmailVerification: ({ user, newEmail, url }) =>
          void calls.push({ email: user.email, newEmail, url }),
      },
    });
    const { browser } = await signedInAda(true);
    await browser.post("/change-email", { newEmail: NEW });
    expect(t.outbox.messages()).toHaveLength(0);
    expect(calls).toEqual([
      { email: ADA, newEmail: NEW, url: expect.stringContaining("/api/auth/verify-email?token=") },
    ]);
  });
});
