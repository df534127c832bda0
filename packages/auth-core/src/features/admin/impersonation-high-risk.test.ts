import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { PASSWORD, useAdminCast } from "#test/admin.ts";

const WHILE_IMPERSONATING = {
  code: "NOT_ALLOWED_WHILE_IMPERSONATING",
  message: "You cannot perform this action while impersonating a user",
};

const { t, admin, user } = useAdminCast({
  overrides: { user: { deleteUser: { enabled: true }, changeEmail: { enabled: true } } },
});

/** The admin's browser, now holding an impersonation session of the user. */
async function impersonating(): Promise<void> {
  const res = await admin.browser.post("/admin/impersonate-user", { userId: user.id });
  expect(res.status).toBe(200);
}

/** What the account-level actions below could change. */
async function accountState() {
  const id = new ObjectId(user.id);
  return {
    user: await t.db.collection("users").findOne({ _id: id }),
    accounts: await t.db.collection("accounts").find({ userId: id }).toArray(),
    twoFactors: await t.db.collection("twoFactors").countDocuments({ userId: id }),
    verifications: await t.db.collection("verifications").countDocuments(),
  };
}

describe("an impersonation session cannot take the account over (docs/security.md)", () => {
  it.each([
    ["/change-password", { currentPassword: PASSWORD, newPassword: "a new password 123" }],
    ["/change-email", { newEmail: "taken-over@example.com" }],
    ["/delete-user", { password: PASSWORD }],
    ["/two-factor/enable", { password: PASSWORD }],
    ["/two-factor/disable", { password: PASSWORD }],
    ["/two-factor/get-totp-uri", { password: PASSWORD }],
    ["/two-factor/generate-backup-codes", { password: PASSWORD }],
  ])("%s answers 403 and changes nothing", async (path, body) => {
    await impersonating();
    const before = await accountState();
    const res = await admin.browser.post(path, body);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(WHILE_IMPERSONATING);
    expect(await accountState()).toEqual(before);
  });

  it("the user's own session still may (change-password)", async () => {
    await impersonating();
    const res = await user.browser.post("/change-password", {
      currentPassword: PASSWORD,
      newPassword: "a new password 123",
    });
    expect(res.status).toBe(200);
  });
});
