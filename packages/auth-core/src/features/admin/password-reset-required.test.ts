import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { PASSWORD, type Person, sessionCount, signIn, useAdminCast } from "#test/admin.ts";
import { TestBrowser } from "#test/browser.ts";

/**
 * docs/security.md (ASVS 6.4.6): a password an admin sets for someone else signs nobody in until
 * the user resets or changes it — the admin never holds a working password of another user.
 */
const { t, admin, user, setUp } = useAdminCast({ open: "by-set-up" });

const ADMIN_SET = "set by the admin 1";
const RESET_REQUIRED = {
  code: "PASSWORD_RESET_REQUIRED",
  message: "Your password was set by an administrator. Reset it to sign in.",
};

async function setPassword(admin: Person, userId: string, newPassword = ADMIN_SET): Promise<void> {
  const res = await admin.browser.post("/admin/set-user-password", { userId, newPassword });
  expect(res).toMatchObject({ status: 200, body: { status: true } });
}

function credential(userId: string) {
  return t.db.collection("accounts").findOne({ userId: new ObjectId(userId), providerId: "credential" });
}

/** Resets through the emailed link, as the user would. */
async function resetByMail(email: string, newPassword: string): Promise<void> {
  expect((await new TestBrowser(t.auth).post("/request-password-reset", { email })).status).toBe(200);
  const link = t.outbox.latestTo(email)?.text.match(/https?:\/\/\S*\/reset-password\/\S+/)?.[0];
  const token = new URL(link ?? "http://x/none").pathname.split("/").pop();
  const res = await new TestBrowser(t.auth).post("/reset-password", { token, newPassword });
  expect(res.status).toBe(200);
}

describe("a password an admin set for someone else", () => {
  it("signs nobody in: 403 PASSWORD_RESET_REQUIRED and no session; the old password is gone too", async () => {
    await setUp();
    await setPassword(admin, user.id);
    expect(await credential(user.id)).toMatchObject({ passwordResetRequired: true });
    const res = await signIn(new TestBrowser(t.auth), user.email, ADMIN_SET);
    expect(res).toMatchObject({ status: 403, body: RESET_REQUIRED });
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await sessionCount(t, user.id)).toBe(0);
    expect((await signIn(new TestBrowser(t.auth), user.email, PASSWORD)).status).toBe(401);
  });

  it("is told apart only to someone who gave it: a wrong password stays 401", async () => {
    await setUp();
    await setPassword(admin, user.id);
    const res = await signIn(new TestBrowser(t.auth), user.email, "a wrong guess 123");
    expect(res).toMatchObject({
      status: 401,
      body: { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" },
    });
  });

  it("after a reset by the emailed link the user's own password signs in and the mark is gone", async () => {
    await setUp();
    await setPassword(admin, user.id);
    await resetByMail(user.email, "my own new password");
    expect(await credential(user.id)).not.toHaveProperty("passwordResetRequired");
    expect((await signIn(new TestBrowser(t.auth), user.email, "my own new password")).status).toBe(200);
    expect((await signIn(new TestBrowser(t.auth), user.email, ADMIN_SET)).status).toBe(401);
  });

  it("change-password from a session the user still has (e.g. a provider sign-in) clears the mark", async () => {
    await setUp();
    await t.db
      .collection("accounts")
      .updateOne(
        { userId: new ObjectId(user.id), providerId: "credential" },
        { $set: { passwordResetRequired: true } },
      );
    const res = await user.browser.post("/change-password", {
      currentPassword: PASSWORD,
      newPassword: "changed by the user",
    });
    expect(res.status).toBe(200);
    expect(await credential(user.id)).not.toHaveProperty("passwordResetRequired");
    expect((await signIn(new TestBrowser(t.auth), user.email, "changed by the user")).status).toBe(200);
  });

  it("a user without a password account gets one, marked", async () => {
    await setUp();
    await t.db.collection("accounts").deleteMany({ userId: new ObjectId(user.id) });
    await setPassword(admin, user.id);
    expect(await credential(user.id)).toMatchObject({ passwordResetRequired: true });
    expect((await signIn(new TestBrowser(t.auth), user.email, ADMIN_SET)).status).toBe(403);
  });
});

describe("where the mark does not apply", () => {
  it("an admin setting their own password signs in with it", async () => {
    await setUp();
    await setPassword(admin, admin.id, "the admin's own new");
    expect(await credential(admin.id)).not.toHaveProperty("passwordResetRequired");
    expect((await signIn(new TestBrowser(t.auth), admin.email, "the admin's own new")).status).toBe(200);
  });

  it("with admin.setUserPasswordRequiresReset false the set password signs in", async () => {
    await setUp({ admin: { setUserPasswordRequiresReset: false } });
    await setPassword(admin, user.id);
    expect(await credential(user.id)).not.toHaveProperty("passwordResetRequired");
    expect((await signIn(new TestBrowser(t.auth), user.email, ADMIN_SET)).status).toBe(200);
  });
});
