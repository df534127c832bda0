import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUp, type TestBrowser } from "#test/browser.ts";
import { type OAuthServer, startOAuthServer } from "#test/oauth-server.ts";
import { countDocs, createSocialAuth, newBrowser, runSocialFlow } from "#test/social.ts";
import type { TestAuth } from "#test/test-auth.ts";
import { accountIdOf } from "../users/index.ts";

/**
 * Pre-hijack through a provider that does not verify emails (matrix H9, CVE-2026-53516): the
 * attacker signs up with Spotify under the victim's address; the victim proves the mailbox (the
 * verify-email link, or a password reset) and signs in. The victim must get the user to themselves,
 * and the attacker's Spotify identity must reach it no more.
 */
let server: OAuthServer;
let t: TestAuth;
const VICTIM = "victim@example.com";

beforeAll(async () => {
  server = await startOAuthServer();
});
afterAll(() => server.close());
beforeEach(async () => {
  t = await createSocialAuth(server, ["spotify", "google"]);
});
afterEach(async () => {
  server.reset();
  await t.close();
});

const person = (id: string, emailVerified: boolean) => ({
  id,
  email: VICTIM,
  emailVerified,
  name: "Someone",
  image: null,
});

/** The attacker's Spotify sign-up under the victim's address: a new, unverified user. */
async function attackerSignsUp(): Promise<TestBrowser> {
  server.setIdentity("spotify", person("spotify-attacker", false));
  const attacker = newBrowser(t);
  const flow = await runSocialFlow(attacker, server, { provider: "spotify", callbackURL: "/home" });
  expect(flow.location).toBe("/home");
  const account = await t.db.collection("accounts").findOne({ providerId: "spotify" });
  expect(account?.emailUnverifiedAtLink).toBe(true);
  expect((await t.db.collection("users").findOne({ email: VICTIM }))?.emailVerified).toBe(false);
  return attacker;
}

async function victimUser() {
  const user = await t.db.collection("users").findOne({ email: VICTIM });
  if (!user) throw new Error("no user");
  return user;
}

async function providersOfVictim(): Promise<string[]> {
  const user = await victimUser();
  const accounts = await t.db.collection("accounts").find({ userId: user._id }).toArray();
  return accounts.map((account) => account.providerId).sort();
}

/** The link of the latest mail to the victim (mail may leave in the background). */
async function mailedLink(pattern: RegExp): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const link = t.outbox.latestTo(VICTIM)?.text.match(pattern)?.[0];
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("no link mailed");
}

/** After the owner proved the mailbox: the attacker's old session and a new Spotify sign-in. */
async function expectAttackerLockedOut(attacker: TestBrowser): Promise<void> {
  const stale = await attacker.get("/get-session");
  expect(stale.status).toBe(200);
  expect(stale.body).toBeNull();
  const user = await victimUser();
  const before = await countDocs(t);
  const sessionsOfVictim = await t.db.collection("sessions").countDocuments({ userId: user._id });
  server.setIdentity("spotify", person("spotify-attacker", false));
  const again = newBrowser(t);
  const flow = await runSocialFlow(again, server, { provider: "spotify", errorCallbackURL: "/login" });
  expect(flow.location).toBe("/login?error=account_not_linked");
  expect(again.cookies.has(SESSION_COOKIE)).toBe(false);
  expect(await countDocs(t)).toEqual(before);
  expect(await t.db.collection("sessions").countDocuments({ userId: user._id })).toBe(sessionsOfVictim);
  expect(await t.db.collection("accounts").countDocuments({ providerId: "spotify" })).toBe(0);
}

describe("pre-hijack through a provider that does not verify emails", () => {
  it("verify-email: the marked Spotify account and every session go; the owner's Google joins the user alone", async () => {
    const attacker = await attackerSignsUp();
    const owner = newBrowser(t);
    expect((await owner.post("/send-verification-email", { email: VICTIM })).status).toBe(200);
    const link = await mailedLink(/https?:\/\/\S+verify-email\S+/);
    const verified = await owner.get(link.slice(link.indexOf("/verify-email")));
    // The mailed link carries the default callbackURL: success is the redirect there.
    expect(verified.status).toBe(302);
    expect(new URL(link).searchParams.get("callbackURL")).toBe(verified.headers.get("location"));
    const user = await victimUser();
    expect(user.emailVerified).toBe(true);
    expect(await providersOfVictim()).toEqual([]);
    // Every session of the user went (the attacker's among them); no auto sign-in by default.
    expect(await t.db.collection("sessions").countDocuments({ userId: user._id })).toBe(0);

    server.setIdentity("google", person("google-owner", true));
    const flow = await runSocialFlow(newBrowser(t), server, { provider: "google", callbackURL: "/home" });
    expect(flow.location).toBe("/home");
    expect(await providersOfVictim()).toEqual(["google"]);
    await expectAttackerLockedOut(attacker);
    expect(await providersOfVictim()).toEqual(["google"]);
  });

  it("reset-password: the marked Spotify account and every session go; the owner signs in with the password", async () => {
    const attacker = await attackerSignsUp();
    const owner = newBrowser(t);
    expect((await owner.post("/request-password-reset", { email: VICTIM })).status).toBe(200);
    const link = await mailedLink(/https?:\/\/\S*\/reset-password\/[A-Za-z0-9]+/);
    const token = new URL(link).pathname.split("/").pop();
    const reset = await owner.post("/reset-password", { token, newPassword: "the owner's password" });
    expect(reset.status).toBe(200);
    expect(await providersOfVictim()).toEqual(["credential"]);
    const user = await victimUser();
    expect(await t.db.collection("sessions").countDocuments({ userId: user._id })).toBe(0);

    const signIn = await owner.post("/sign-in/email", { email: VICTIM, password: "the owner's password" });
    expect(signIn.status).toBe(200);
    await expectAttackerLockedOut(attacker);
    expect(await providersOfVictim()).toEqual(["credential"]);
    expect((await owner.get<{ user: { id: string } }>("/get-session")).body.user.id).toBe(
      user._id.toHexString(),
    );
  });

  it("an account linked from the session of an unverified user (different email allowed) goes on reset", async () => {
    await t.close();
    t = await createSocialAuth(server, ["github"], {
      account: { accountLinking: { allowDifferentEmails: true } },
    });
    // The attacker registers the victim's address with a password and links their own GitHub.
    const attacker = newBrowser(t);
    expect((await signUp(attacker, { email: VICTIM })).status).toBe(200);
    server.setIdentity("github", {
      id: "4242",
      email: "attacker@example.com",
      emailVerified: true,
      name: "A",
      image: null,
    });
    const link = await runSocialFlow(
      attacker,
      server,
      { provider: "github", callbackURL: "/home" },
      "/link-social",
    );
    expect(link.location).toBe("/home");
    expect((await t.db.collection("accounts").findOne({ providerId: "github" }))?.emailUnverifiedAtLink).toBe(
      true,
    );

    const owner = newBrowser(t);
    await owner.post("/request-password-reset", { email: VICTIM });
    const mailed = await mailedLink(/https?:\/\/\S*\/reset-password\/[A-Za-z0-9]+/);
    const token = new URL(mailed).pathname.split("/").pop();
    expect((await owner.post("/reset-password", { token, newPassword: "the owner's password" })).status).toBe(
      200,
    );
    expect(await providersOfVictim()).toEqual(["credential"]);
    expect((await attacker.get("/get-session")).body).toBeNull();
    // The attacker's GitHub now signs in as nobody: its email is the attacker's own, a new user.
    const again = await runSocialFlow(newBrowser(t), server, { provider: "github", callbackURL: "/home" });
    expect(again.location).toBe("/home");
    const githubUser = await t.db.collection("users").findOne({ email: "attacker@example.com" });
    expect(githubUser?._id.equals((await victimUser())._id)).toBe(false);
    expect(await providersOfVictim()).toEqual(["credential"]);
  });

  it("a provider that verified the email stores an unmarked account (nothing for a later proof to drop)", async () => {
    server.setIdentity("google", person("google-owner", true));
    await runSocialFlow(newBrowser(t), server, { provider: "google", callbackURL: "/home" });
    const account = await t.db.collection("accounts").findOne({ providerId: "google" });
    expect(account).not.toBeNull();
    expect(account).not.toHaveProperty("emailUnverifiedAtLink");
  });

  it("a marked account whose provider later verifies the address is kept, unmarked; other marked ones go", async () => {
    const attacker = await attackerSignsUp();
    const user = await victimUser();
    // A second unproven identity on the same user (as a trusted-provider link would leave).
    await t.db.collection("accounts").insertOne({
      _id: accountIdOf("google", "google-owner"),
      providerId: "google",
      accountId: "google-owner",
      userId: user._id,
      password: null,
      emailUnverifiedAtLink: true,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    server.setIdentity("google", person("google-owner", true));
    const flow = await runSocialFlow(newBrowser(t), server, { provider: "google", callbackURL: "/home" });
    expect(flow.location).toBe("/home");
    expect((await victimUser()).emailVerified).toBe(true);
    expect(await providersOfVictim()).toEqual(["google"]);
    const google = await t.db.collection("accounts").findOne({ providerId: "google" });
    expect(google).not.toHaveProperty("emailUnverifiedAtLink");
    // Only the new Google session remains.
    expect(await t.db.collection("sessions").countDocuments({ userId: user._id })).toBe(1);
    expect((await attacker.get("/get-session")).body).toBeNull();
  });
});
