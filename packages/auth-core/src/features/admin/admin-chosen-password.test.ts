import { afterEach, describe, expect, it } from "vitest";
import { auditEvents, signIn, useAdminCast } from "#test/admin.ts";
import { SESSION_COOKIE, TestBrowser } from "#test/browser.ts";
import { useOAuthServer } from "#test/oauth-server.ts";
import { newBrowser, providerConfig, runSocialFlow } from "#test/social.ts";

/**
 * Security-hardening issue, finding 4: a password an admin chose in create-user is marked like
 * set-user-password's (it signs nobody in until reset), and the owner's social sign-in, linked by
 * email to that account, removes it — the admin never keeps a working password of someone else.
 */
const server = useOAuthServer();
const { t, admin } = useAdminCast({
  overrides: () => ({ socialProviders: { google: providerConfig(server, "google") } }),
});
afterEach(() => server.reset());
const VICTIM = "victim@example.com";
const CHOSEN = "admin chose this one";
const RESET_REQUIRED = {
  code: "PASSWORD_RESET_REQUIRED",
  message: "Your password was set by an administrator. Reset it to sign in.",
};

async function createVictim(extra: Record<string, unknown> = {}) {
  const res = await admin.browser.post<{ user: { id: string } }>("/admin/create-user", {
    email: VICTIM,
    name: "Victim",
    password: CHOSEN,
    data: { emailVerified: true },
    ...extra,
  });
  expect(res.status).toBe(200);
  return res.body.user.id;
}

const credentialOf = async () => {
  const user = await t.db.collection("users").findOne({ email: VICTIM });
  return t.db.collection("accounts").findOne({ userId: user!._id, providerId: "credential" });
};

describe("a password an admin chose in create-user", () => {
  it("is marked for reset and signs nobody in", async () => {
    await createVictim();
    expect(await credentialOf()).toMatchObject({ passwordResetRequired: true });
    const res = await signIn(new TestBrowser(t.auth), VICTIM, CHOSEN);
    expect([res.status, res.body]).toEqual([403, RESET_REQUIRED]);
    expect(res.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
    const victim = await t.db.collection("users").findOne({ email: VICTIM });
    expect(await t.db.collection("sessions").countDocuments({ userId: victim!._id })).toBe(0);
    expect((await auditEvents(t)).map((event) => event.action)).toEqual(["user.create"]);
  });

  it("is removed when the owner's social sign-in links to the account by email", async () => {
    const userId = await createVictim();
    server.setIdentity("google", {
      id: "google-victim",
      email: VICTIM,
      emailVerified: true,
      name: "V",
      image: null,
    });
    const flow = await runSocialFlow(newBrowser(t), server, { provider: "google", callbackURL: "/home" });
    expect(flow.location).toBe("/home");
    const accounts = await t.db
      .collection("accounts")
      .find({ accountId: { $exists: true } })
      .toArray();
    const victimAccounts = accounts.filter((account) => account.userId.toHexString() === userId);
    expect(victimAccounts.map((account) => account.providerId)).toEqual(["google"]);
    const res = await signIn(new TestBrowser(t.auth), VICTIM, CHOSEN);
    expect([res.status, res.body]).toEqual([
      401,
      { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" },
    ]);
  });

  it("a password the user reset themself is theirs: a later social link keeps it", async () => {
    await createVictim();
    await new TestBrowser(t.auth).post("/request-password-reset", { email: VICTIM });
    const link = t.outbox.latestTo(VICTIM)?.text.match(/https?:\/\/\S*\/reset-password\/\S+/)?.[0];
    const token = new URL(link!).pathname.split("/").pop()!;
    const reset = await new TestBrowser(t.auth).post("/reset-password", {
      token,
      newPassword: "mine and only mine",
    });
    expect(reset.status).toBe(200);
    server.setIdentity("google", {
      id: "google-victim",
      email: VICTIM,
      emailVerified: true,
      name: "V",
      image: null,
    });
    await runSocialFlow(newBrowser(t), server, { provider: "google", callbackURL: "/home" });
    expect(await credentialOf()).not.toBeNull();
    expect((await signIn(new TestBrowser(t.auth), VICTIM, "mine and only mine")).status).toBe(200);
  });
});
