import type { AuthOptions } from "@tessera/auth-core";
import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { createCast } from "#test/admin.ts";
import { signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

const ADA = "ada@example.com";
const ADA_NEW = "ada.new@example.com";
const BOB = "bob@example.com";
const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "new staple password";
const INVALID_TOKEN = { code: "INVALID_TOKEN", message: "invalid token" };

const { t, openAuth } = useTestAuthPerTest();

async function setUp(overrides: Omit<Partial<AuthOptions>, "database"> = {}) {
  await openAuth(overrides);
  const ada = new TestBrowser(t.auth);
  const res = await signUp(ada, { email: ADA, password: PASSWORD });
  expect(res.status).toBe(200);
  await signUp(new TestBrowser(t.auth), { email: BOB, password: PASSWORD });
  return { ada, adaId: new ObjectId(res.body.user.id as string) };
}

/** Requests a reset for `email` and returns the token of the link mailed to it. */
async function requestResetToken(email: string): Promise<string> {
  const res = await new TestBrowser(t.auth).post("/request-password-reset", { email });
  expect(res.status).toBe(200);
  const link = t.outbox.latestTo(email)?.text.match(/https?:\/\/\S*\/reset-password\/\S+/)?.[0];
  if (!link) throw new Error(`no reset link mailed to ${email}`);
  return new URL(link).pathname.split("/").pop() ?? "";
}

/** The user's outstanding reset rows (their value is the user id). */
function resetRowsOf(userId: ObjectId): Promise<number> {
  return t.db
    .collection("verifications")
    .countDocuments({ identifier: { $regex: "^reset-password:" }, value: userId.toHexString() });
}

async function bobId(): Promise<ObjectId> {
  const bob = await t.db.collection("users").findOne({ email: BOB });
  return bob?._id as ObjectId;
}

async function signInStatus(email: string, password: string): Promise<number> {
  return (await new TestBrowser(t.auth).post("/sign-in/email", { email, password })).status;
}

/** The old mailbox's link no longer resets anything: 400 invalid token, the password unchanged. */
async function expectLinkDead(token: string, email: string, password: string): Promise<void> {
  const res = await new TestBrowser(t.auth).post("/reset-password", { newPassword: "taken over!!", token });
  expect(res.status).toBe(400);
  expect(res.body).toEqual(INVALID_TOKEN);
  expect(await signInStatus(email, "taken over!!")).toBe(401);
  expect(await signInStatus(email, password)).toBe(200);
}

describe("a password reset ends the impersonation sessions the admin started", () => {
  it("the admin resets their own password: the impersonating browser is signed out", async () => {
    await openAuth();
    const { admin, user } = await createCast(t);
    expect((await admin.browser.post("/admin/impersonate-user", { userId: user.id })).status).toBe(200);
    const before = await admin.browser.get<{ session: { impersonatedBy: string } }>("/get-session");
    expect(before.body?.session.impersonatedBy).toBe(admin.id);

    const token = await requestResetToken(admin.email);
    const res = await new TestBrowser(t.auth).post("/reset-password", { newPassword: NEW_PASSWORD, token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });

    expect((await admin.browser.get("/get-session")).body).toBeNull();
    const sessions = t.db.collection("sessions");
    expect(await sessions.countDocuments({ impersonatedBy: new ObjectId(admin.id) })).toBe(0);
    expect(await sessions.countDocuments({ userId: new ObjectId(admin.id) })).toBe(0);
    // The impersonated user's own session is theirs, not the admin's: it stays.
    expect(await sessions.countDocuments({ userId: new ObjectId(user.id) })).toBe(1);
  });
});

describe("reset links die when the email or the password changes", () => {
  it("an unverified user's email change (the address moves at once) voids the link sent to the old address", async () => {
    const { ada, adaId } = await setUp({
      user: { changeEmail: { enabled: true, verifyNewEmailFirst: false } },
    });
    const token = await requestResetToken(ADA);
    const bobToken = await requestResetToken(BOB);
    const res = await ada.post("/change-email", { newEmail: ADA_NEW });
    expect(res.status).toBe(200);
    expect(await resetRowsOf(adaId)).toBe(0);
    await expectLinkDead(token, ADA_NEW, PASSWORD);
    // Scoped to the user: Bob's link still works.
    expect(await resetRowsOf(await bobId())).toBe(1);
    const bobReset = await new TestBrowser(t.auth).post("/reset-password", {
      newPassword: NEW_PASSWORD,
      token: bobToken,
    });
    expect(bobReset.status).toBe(200);
  });

  it("a verified user's change: the link survives the request and dies when the confirmation moves the address", async () => {
    const { ada, adaId } = await setUp({
      user: { changeEmail: { enabled: true, verifyNewEmailFirst: false } },
    });
    await t.db.collection("users").updateOne({ _id: adaId }, { $set: { emailVerified: true } });
    const token = await requestResetToken(ADA);
    expect((await ada.post("/change-email", { newEmail: ADA_NEW })).status).toBe(200);
    expect(await resetRowsOf(adaId)).toBe(1);
    const confirmLink = t.outbox.latestTo(ADA)?.text.match(/https?:\/\/\S+\/verify-email\S+/)?.[0] ?? "";
    expect((await ada.get(confirmLink)).status).toBe(302);
    expect(await t.db.collection("users").findOne({ _id: adaId })).toMatchObject({ email: ADA_NEW });
    expect(await resetRowsOf(adaId)).toBe(0);
    await expectLinkDead(token, ADA_NEW, PASSWORD);
  });

  it("with verifyNewEmailFirst the links die only when the new address confirms (the address moves then)", async () => {
    const { ada, adaId } = await setUp({
      user: { changeEmail: { enabled: true, verifyNewEmailFirst: true } },
    });
    await t.db.collection("users").updateOne({ _id: adaId }, { $set: { emailVerified: true } });
    const token = await requestResetToken(ADA);
    expect((await ada.post("/change-email", { newEmail: ADA_NEW })).status).toBe(200);
    const first = t.outbox.latestTo(ADA)?.text.match(/https?:\/\/\S+\/verify-email\S+/)?.[0] ?? "";
    expect((await ada.get(first)).status).toBe(302);
    expect(await t.db.collection("users").findOne({ _id: adaId })).toMatchObject({ email: ADA });
    expect(await resetRowsOf(adaId)).toBe(1);
    const second = t.outbox.latestTo(ADA_NEW)?.text.match(/https?:\/\/\S+\/verify-email\S+/)?.[0] ?? "";
    expect((await ada.get(second)).status).toBe(302);
    expect(await t.db.collection("users").findOne({ _id: adaId })).toMatchObject({ email: ADA_NEW });
    expect(await resetRowsOf(adaId)).toBe(0);
    await expectLinkDead(token, ADA_NEW, PASSWORD);
  });

  it("change-password voids the user's outstanding links, not other users'", async () => {
    const { ada, adaId } = await setUp();
    const token = await requestResetToken(ADA);
    await requestResetToken(BOB);
    const res = await ada.post("/change-password", { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(await resetRowsOf(adaId)).toBe(0);
    expect(await resetRowsOf(await bobId())).toBe(1);
    await expectLinkDead(token, ADA, NEW_PASSWORD);
  });

  it("a refused change-password (wrong current password) keeps the links", async () => {
    const { ada, adaId } = await setUp();
    await requestResetToken(ADA);
    const res = await ada.post("/change-password", {
      currentPassword: "wrong password!",
      newPassword: NEW_PASSWORD,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
    expect(await resetRowsOf(adaId)).toBe(1);
  });

  it("set-password (a user without a password gets one) voids the links", async () => {
    const { ada, adaId } = await setUp();
    await t.db.collection("accounts").deleteMany({ userId: adaId });
    const token = await requestResetToken(ADA);
    const res = await t.auth.api.setPassword({
      body: { newPassword: NEW_PASSWORD },
      headers: { cookie: ada.cookieHeader() ?? "" },
    });
    expect(res.status).toBe(200);
    expect(await resetRowsOf(adaId)).toBe(0);
    await expectLinkDead(token, ADA, NEW_PASSWORD);
  });
});
