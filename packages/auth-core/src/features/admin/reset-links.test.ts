import { describe, expect, it } from "vitest";
import { createCast, type Person } from "#test/admin.ts";
import { TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

/**
 * A reset link is only good while the account is as it was when it was mailed: an admin moving the
 * address or setting the password voids it, as the user's own change of email or password does.
 */
const { t, openAuth } = useTestAuthPerTest();

async function mailedResetToken(user: Person): Promise<string> {
  expect((await new TestBrowser(t.auth).post("/request-password-reset", { email: user.email })).status).toBe(
    200,
  );
  const link = t.outbox.latestTo(user.email)?.text.match(/https?:\/\/\S*\/reset-password\/\S+/)?.[0];
  if (!link) throw new Error("no reset link in the outbox");
  return new URL(link).pathname.split("/").pop()!;
}

async function resetWith(token: string) {
  return new TestBrowser(t.auth).post("/reset-password", { newPassword: "attacker password 1", token });
}

describe("admin changes void the user's reset links (and an address move notifies the old one)", () => {
  it("when an admin moves the user's email", async () => {
    await openAuth();
    const { admin, user } = await createCast(t);
    const token = await mailedResetToken(user);
    const moved = await admin.browser.post("/admin/update-user", {
      userId: user.id,
      data: { email: "moved@example.com" },
    });
    expect(moved.status).toBe(200);
    const res = await resetWith(token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
    expect(await t.db.collection("verifications").countDocuments({ identifier: /^reset-password:/ })).toBe(0);
    // The replaced address is told, as for the user's own change (unverified: not where to).
    const notice = t.outbox.latestTo(user.email);
    expect(notice?.kind).toBe("email-changed");
    expect(notice?.text).not.toContain("moved@example.com");
  });

  it("keeps them when an admin changes only the name", async () => {
    await openAuth();
    const { admin, user } = await createCast(t);
    const token = await mailedResetToken(user);
    expect(
      (await admin.browser.post("/admin/update-user", { userId: user.id, data: { name: "Renamed" } })).status,
    ).toBe(200);
    expect((await resetWith(token)).status).toBe(200);
  });

  it("when an admin sets the user's password", async () => {
    await openAuth();
    const { admin, user } = await createCast(t);
    const token = await mailedResetToken(user);
    const set = await admin.browser.post("/admin/set-user-password", {
      userId: user.id,
      newPassword: "admin chosen password",
    });
    expect(set.status).toBe(200);
    const res = await resetWith(token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
  });
});
