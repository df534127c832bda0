import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUp, type TestBrowser } from "#test/browser.ts";
import {
  countDocs,
  createSocialAuth,
  ERROR_PAGE,
  newBrowser,
  returnToCallback,
  runSocialFlow,
  useSocialTestbed,
} from "#test/social.ts";

/** docs/decisions/ linking outcome. */
const { server, t } = useSocialTestbed(["github", "google"]);

const who = (id: string, email: string, emailVerified = true) => ({
  id,
  email,
  emailVerified,
  name: "Grace Hopper",
  image: null,
});

/** A password user; `verified` marks the address proven (as the verify-email link would). */
async function passwordUser(email: string, verified: boolean): Promise<TestBrowser> {
  const browser = newBrowser(t);
  const res = await signUp(browser, { email });
  expect(res.status).toBe(200);
  if (verified) await t.db.collection("users").updateOne({ email }, { $set: { emailVerified: true } });
  return browser;
}

const accountsOf = async (email: string) => {
  const user = await t.db.collection("users").findOne({ email });
  return t.db.collection("accounts").find({ userId: user?._id }).toArray();
};

describe("sign-in with an email that already has a user", () => {
  it("links when the provider verified the email and the local address is verified", async () => {
    await passwordUser("linked@example.com", true);
    server.setIdentity("github", who("3001", "linked@example.com"));
    const before = await countDocs(t);
    const browser = newBrowser(t);
    const flow = await runSocialFlow(browser, server, {
      provider: "github",
      callbackURL: "/home",
      newUserCallbackURL: "/new",
    });
    expect(flow.location).toBe("/home");
    expect((await accountsOf("linked@example.com")).map((a) => a.providerId).sort()).toEqual([
      "credential",
      "github",
    ]);
    expect(await countDocs(t)).toEqual({
      users: before.users,
      accounts: before.accounts + 1,
      sessions: before.sessions + 1,
    });
    const session = await browser.get<{ user: { email: string } }>("/get-session");
    expect(session.body.user.email).toBe("linked@example.com");
  });

  it("pre-hijack: an unverified password account is never joined by the real owner's provider sign-in (H9)", async () => {
    const attacker = await passwordUser("victim@example.com", false);
    server.setIdentity("github", who("3002", "victim@example.com", true));
    const before = await countDocs(t);
    const victim = newBrowser(t);
    const flow = await runSocialFlow(victim, server, { provider: "github", errorCallbackURL: "/login" });
    expect(flow.location).toBe("/login?error=account_not_linked");
    expect(victim.cookies.has(SESSION_COOKIE)).toBe(false);
    expect((await accountsOf("victim@example.com")).map((a) => a.providerId)).toEqual(["credential"]);
    expect(await countDocs(t)).toEqual(before);
    // The attacker's session reaches only the attacker's own, provider-less account.
    const session = await attacker.get<{ user: { id: string } }>("/get-session");
    expect(session.status).toBe(200);
  });

  it("does not link when the provider does not vouch for the email (H10), unless the provider is trusted", async () => {
    await passwordUser("unvouched@example.com", true);
    server.setIdentity("github", who("3003", "unvouched@example.com", false));
    const before = await countDocs(t);
    const flow = await runSocialFlow(newBrowser(t), server, {
      provider: "github",
      errorCallbackURL: "/login",
    });
    expect(flow.location).toBe("/login?error=account_not_linked");
    expect(await countDocs(t)).toEqual(before);

    const trusting = await createSocialAuth(server, ["github"], {
      account: { accountLinking: { trustedProviders: ["github"] } },
    });
    try {
      await signUp(newBrowser(trusting), { email: "unvouched@example.com" });
      await trusting.db.collection("users").updateOne({}, { $set: { emailVerified: true } });
      const ok = await runSocialFlow(newBrowser(trusting), server, {
        provider: "github",
        callbackURL: "/home",
      });
      expect(ok.location).toBe("/home");
      expect(await trusting.db.collection("accounts").countDocuments({ providerId: "github" })).toBe(1);
    } finally {
      await trusting.close();
    }
  });

  it("does not link when account linking is disabled", async () => {
    const closed = await createSocialAuth(server, ["github"], {
      account: { accountLinking: { enabled: false } },
    });
    try {
      await signUp(newBrowser(closed), { email: "nolink@example.com" });
      await closed.db.collection("users").updateOne({}, { $set: { emailVerified: true } });
      server.setIdentity("github", who("3004", "nolink@example.com"));
      const flow = await runSocialFlow(newBrowser(closed), server, {
        provider: "github",
        errorCallbackURL: "/login",
      });
      expect(flow.location).toBe("/login?error=account_not_linked");
      expect(await closed.db.collection("accounts").countDocuments({ providerId: "github" })).toBe(0);
    } finally {
      await closed.close();
    }
  });
});

describe("POST /link-social", () => {
  it("links the provider account to the signed-in user and mints no session", async () => {
    const browser = await passwordUser("linker@example.com", false);
    server.setIdentity("google", who("3010", "linker@example.com"));
    const before = await countDocs(t);
    const flow = await runSocialFlow(
      browser,
      server,
      { provider: "google", callbackURL: "/settings" },
      "/link-social",
    );
    expect(flow.start.body).toMatchObject({ redirect: true, status: true });
    expect(flow.location).toBe("/settings");
    expect((await accountsOf("linker@example.com")).map((a) => a.providerId).sort()).toEqual([
      "credential",
      "google",
    ]);
    expect(await countDocs(t)).toEqual({ ...before, accounts: before.accounts + 1 });
  });

  it("unable_to_link_account: a different email (unless allowed) or an unverified one", async () => {
    const browser = await passwordUser("mine@example.com", true);
    server.setIdentity("google", who("3011", "someone.else@example.com"));
    const before = await countDocs(t);
    const diff = await runSocialFlow(
      browser,
      server,
      { provider: "google", errorCallbackURL: "/settings" },
      "/link-social",
    );
    expect(diff.location).toBe("/settings?error=unable_to_link_account");
    server.setIdentity("google", who("3012", "mine@example.com", false));
    const unverified = await runSocialFlow(
      browser,
      server,
      { provider: "google", errorCallbackURL: "/settings" },
      "/link-social",
    );
    expect(unverified.location).toBe("/settings?error=unable_to_link_account");
    expect(await countDocs(t)).toEqual(before);

    const lenient = await createSocialAuth(server, ["google"], {
      account: { accountLinking: { allowDifferentEmails: true } },
    });
    try {
      const other = newBrowser(lenient);
      await signUp(other, { email: "mine@example.com" });
      server.setIdentity("google", who("3011", "someone.else@example.com"));
      const ok = await runSocialFlow(
        other,
        server,
        { provider: "google", callbackURL: "/settings" },
        "/link-social",
      );
      expect(ok.location).toBe("/settings");
      expect(await lenient.db.collection("accounts").countDocuments({ providerId: "google" })).toBe(1);
    } finally {
      await lenient.close();
    }
  });

  it("account_already_linked_to_different_user: never re-parents a provider account (H12)", async () => {
    server.setIdentity("github", who("3020", "owner@example.com"));
    await runSocialFlow(newBrowser(t), server, { provider: "github" });
    const intruder = await passwordUser("owner@example.com".replace("owner", "intruder"), true);
    server.setIdentity("github", who("3020", "intruder@example.com"));
    const flow = await runSocialFlow(
      intruder,
      server,
      { provider: "github", errorCallbackURL: "/settings" },
      "/link-social",
    );
    expect(flow.location).toBe("/settings?error=account_already_linked_to_different_user");
    const account = await t.db.collection("accounts").findOne({ providerId: "github", accountId: "3020" });
    const owner = await t.db.collection("users").findOne({ email: "owner@example.com" });
    expect(account?.userId.equals(owner?._id)).toBe(true);
  });

  it("links one provider account to only one of two users racing for it (M6)", async () => {
    const lenient = await createSocialAuth(server, ["google"], {
      account: { accountLinking: { allowDifferentEmails: true } },
    });
    try {
      const [a, b] = [newBrowser(lenient), newBrowser(lenient)];
      await signUp(a, { email: "race-a@example.com" });
      await signUp(b, { email: "race-b@example.com" });
      server.setIdentity("google", who("3030", "race@example.com"));
      const starts = await Promise.all(
        [a, b].map((browser) =>
          browser.post<{ url: string }>("/link-social", { provider: "google", callbackURL: "/ok" }),
        ),
      );
      const [first, second] = await Promise.all(starts.map((start) => server.authorize(start.body.url)));
      const results = await Promise.all([returnToCallback(a, first!), returnToCallback(b, second!)]);
      const locations = results.map((res) => res.headers.get("location"));
      expect(locations.filter((l) => l === "/ok")).toHaveLength(1);
      expect(
        locations.filter((l) => l === `${ERROR_PAGE}?error=account_already_linked_to_different_user`),
      ).toHaveLength(1);
      expect(
        await lenient.db.collection("accounts").countDocuments({ providerId: "google", accountId: "3030" }),
      ).toBe(1);
    } finally {
      await lenient.close();
    }
  });

  it("needs a fresh session from a trusted origin (H14), a configured provider, and linking on", async () => {
    const anonymous = await newBrowser(t).post("/link-social", { provider: "google" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ code: "UNAUTHORIZED", message: "unauthorized" });
    const browser = await passwordUser("stale@example.com", true);
    const crossSite = await browser.post(
      "/link-social",
      { provider: "google" },
      { headers: { origin: "https://evil.example" } },
    );
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).toEqual({ code: "INVALID_ORIGIN", message: "Invalid origin" });
    const unknown = await browser.post("/link-social", { provider: "myspace" });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: "PROVIDER_NOT_FOUND", message: "Provider not found" });
    t.advance(86_400 + 60);
    try {
      const stale = await browser.post("/link-social", { provider: "google" });
      expect(stale.status).toBe(403);
      expect(stale.body).toEqual({ code: "SESSION_NOT_FRESH", message: "Session is not fresh" });
    } finally {
      t.advance(-(86_400 + 60));
    }
    const off = await createSocialAuth(server, ["google"], {
      account: { accountLinking: { enabled: false } },
    });
    try {
      const user = newBrowser(off);
      await signUp(user, { email: "off@example.com" });
      const refused = await user.post("/link-social", { provider: "google" });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({
        code: "LINKING_NOT_ALLOWED",
        message: "Account not linked - linking not allowed",
      });
      expect(await off.db.collection("verifications").countDocuments()).toBe(0);
    } finally {
      await off.close();
    }
  });
});
