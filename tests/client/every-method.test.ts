import { type AuthClient, type ClientResult, createAuthClient } from "@tessera/auth-core/client";
import { ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SoftwareAuthenticator } from "#test/software-authenticator.ts";
import { useDomainTestbed } from "#test/sso-domains.ts";
import { startWebhookReceiver, type WebhookReceiver } from "#test/webhook-receiver.ts";
import { ROUTES, type RouteTable } from "../../packages/auth-core/src/client/routes.ts";
import { decodeBase32, generateTotp } from "../../packages/auth-core/src/crypto/totp.ts";
import { ERROR_CATALOGUE, type ErrorCode } from "../../packages/auth-core/src/errors/catalogue.ts";
import { type BrowserLikeFetch, browserLikeFetch, type LiveServer, startLiveServer } from "./live-server.ts";
import { createConformanceChecker, type RecordedResponse } from "./openapi-conformance.ts";

/**
 * Every client method at least once against the live standalone server, in the order an app would
 * use them: what each resolves to, and the database or session state a user relies on afterwards.
 * The last test checks that every route of the client was called.
 */
let live: LiveServer;
const called = new Set<string>();
const answers: RecordedResponse[] = [];

beforeAll(async () => {
  live = await startLiveServer({
    user: { deleteUser: { enabled: true }, changeEmail: { enabled: true } },
    magicLink: { enabled: true },
    emailOTP: { enabled: true },
    organization: {
      teams: { enabled: true, allowRemovingAllTeams: true },
      requireEmailVerificationOnInvitation: false,
    },
  });
});
afterAll(async () => {
  await live?.close();
});

const PASSWORD = "correct horse battery";

interface Person {
  client: AuthClient;
  browser: BrowserLikeFetch;
  email: string;
  id: string;
}

/** The browser's fetch, recording each call's route and answer (for the coverage and conformance checks). */
function recording(browser: BrowserLikeFetch): typeof fetch {
  return async (input, init) => {
    const method = init?.method ?? "GET";
    const path = new URL(String(input)).pathname.replace(/^\/api\/auth/, "");
    called.add(`${method} ${path}`);
    const response = await browser.fetch(input, init);
    const text = await response.clone().text();
    if ((response.headers.get("content-type") ?? "").includes("json"))
      answers.push({ method, path, status: response.status, body: text ? JSON.parse(text) : null });
    return response;
  };
}

function newClient(server: LiveServer = live): { client: AuthClient; browser: BrowserLikeFetch } {
  const browser = browserLikeFetch(server.origin);
  return {
    client: createAuthClient({
      baseURL: server.origin,
      fetchOptions: { customFetchImpl: recording(browser) },
    }),
    browser,
  };
}

async function person(name: string, server: LiveServer = live): Promise<Person> {
  const { client, browser } = newClient(server);
  const email = `${name}@example.com`;
  const id = ok(await client.signUp.email({ name, email, password: PASSWORD })).user.id;
  return { client, browser, email, id };
}

function ok<T>(result: ClientResult<T>): T {
  expect(result.error).toBeNull();
  return result.data as T;
}

/** A failed call's error is exactly the catalogue's status, code and message (`{id}` filled in). */
function failed(result: ClientResult<unknown>, code: ErrorCode, id = ""): void {
  expect(result.data).toBeNull();
  expect(result.error, JSON.stringify(result.error)).toEqual({
    status: ERROR_CATALOGUE[code].status,
    code,
    message: ERROR_CATALOGUE[code].message.replace("{id}", id),
  });
}

function mailedToken(email: string, path: string): string {
  const text = live.outbox.latestTo(email)?.text ?? "";
  const link = text.match(/https?:\/\/\S+/g)?.find((url) => url.includes(path));
  if (!link) throw new Error(`no ${path} link mailed to ${email}`);
  const url = new URL(link);
  return url.searchParams.get("token") ?? url.pathname.split("/").pop()!;
}

function users() {
  return live.db.collection("users");
}

let ada: Person;

describe("account and session methods", () => {
  it("sign-up, email verification, the session and its list", async () => {
    ada = await person("ada");
    expect(ok(await ada.client.sendVerificationEmail({ email: ada.email }))).toEqual({ status: true });
    const verified = ok(await ada.client.verifyEmail({ token: mailedToken(ada.email, "/verify-email") }));
    expect(verified).toMatchObject({ status: true, user: { email: ada.email, emailVerified: true } });
    const session = ok(await ada.client.getSession());
    expect(session?.user).toMatchObject({ id: ada.id, emailVerified: true });
    expect(ok(await ada.client.listSessions())).toHaveLength(1);
    const exported = ok(await ada.client.exportUserData());
    expect(exported.user).toMatchObject({ id: ada.id, email: ada.email, emailVerified: true });
    expect(exported.sessions).toHaveLength(1);
  });

  it("update-user, change-email and change-password", async () => {
    expect(ok(await ada.client.updateUser({ name: "Ada L" }))).toEqual({ status: true });
    expect((await users().findOne({ _id: new ObjectId(ada.id) }))?.name).toBe("Ada L");
    expect(ok(await ada.client.changeEmail({ newEmail: "ada.l@example.com" }))).toEqual({ status: true });
    const changed = ok(
      await ada.client.changePassword({ currentPassword: PASSWORD, newPassword: "another good password" }),
    );
    expect(changed.user.id).toBe(ada.id);
    failed(
      await ada.client.signIn.email({ email: ada.email, password: PASSWORD }),
      "INVALID_EMAIL_OR_PASSWORD",
    );
  });

  it("sign-in elsewhere, then revoke-session, revoke-other-sessions and revoke-sessions", async () => {
    const other = newClient();
    const signedIn = ok(
      await other.client.signIn.email({ email: ada.email, password: "another good password" }),
    );
    expect("token" in signedIn && signedIn.user.id).toBe(ada.id);
    const token = "token" in signedIn ? signedIn.token : "";
    expect(ok(await ada.client.revokeSession({ token }))).toEqual({ status: true });
    expect(ok(await other.client.getSession())).toBeNull();
    await other.client.signIn.email({ email: ada.email, password: "another good password" });
    expect(ok(await ada.client.revokeOtherSessions())).toEqual({ status: true });
    expect(ok(await other.client.getSession())).toBeNull();
    await other.client.signIn.email({ email: ada.email, password: "another good password" });
    expect(ok(await other.client.revokeSessions())).toEqual({ status: true });
    expect(ok(await ada.client.getSession())).toBeNull();
  });

  it("password reset (both paths) and sign-in with the new password", async () => {
    expect(ok(await ada.client.forgetPassword({ email: ada.email }))).toMatchObject({ status: true });
    expect(ok(await ada.client.requestPasswordReset({ email: ada.email }))).toMatchObject({ status: true });
    const token = mailedToken(ada.email, "/reset-password/");
    expect(ok(await ada.client.resetPassword({ newPassword: PASSWORD, token }))).toEqual({ status: true });
    ok(await ada.client.signIn.email({ email: ada.email, password: PASSWORD }));
    expect(ok(await ada.client.listAccounts()).map((account) => account.provider)).toEqual(["credential"]);
  });

  it("provider methods answer the catalogue's errors when no provider is configured", async () => {
    failed(await ada.client.signIn.social({ provider: "github" }), "PROVIDER_NOT_FOUND");
    failed(await ada.client.linkSocial({ provider: "github" }), "PROVIDER_NOT_FOUND");
    failed(await ada.client.unlinkAccount({ providerId: "github" }), "FAILED_TO_UNLINK_LAST_ACCOUNT");
    failed(await ada.client.getAccessToken({ providerId: "github" }), "PROVIDER_NOT_SUPPORTED", "github");
    failed(await ada.client.refreshToken({ providerId: "github" }), "PROVIDER_NOT_SUPPORTED", "github");
    failed(await ada.client.accountInfo({ accountId: "nope" }), "ACCOUNT_NOT_FOUND");
  });
});

let bob: Person;

describe("organization methods", () => {
  let organizationId = "";

  it("create, read, make active, update and ask about permissions", async () => {
    expect(ok(await ada.client.organization.checkSlug({ slug: "acme" }))).toEqual({ status: true });
    const created = ok(await ada.client.organization.create({ name: "Acme", slug: "acme" }));
    organizationId = created.id;
    expect(ok(await ada.client.organization.list()).map((o) => o.slug)).toEqual(["acme"]);
    expect(ok(await ada.client.organization.setActive({ organizationId }))?.id).toBe(organizationId);
    expect(ok(await ada.client.organization.getFullOrganization())?.members).toHaveLength(1);
    ok(await ada.client.organization.update({ data: { name: "Acme Inc" } }));
    expect((await live.db.collection("organizations").findOne({ slug: "acme" }))?.name).toBe("Acme Inc");
    const allowed = ok(
      await ada.client.organization.hasPermission({ permissions: { organization: ["update"] } }),
    );
    expect(allowed).toMatchObject({ success: true });
  });

  it("invitations: invite, read, list, accept, reject and cancel", async () => {
    bob = await person("bob");
    const invitation = ok(await ada.client.organization.inviteMember({ email: bob.email, role: "member" }));
    expect(ok(await ada.client.organization.listInvitations()).map((i) => i.email)).toEqual([bob.email]);
    expect(ok(await bob.client.organization.getInvitation({ id: invitation.id }))).toMatchObject({
      organizationSlug: "acme",
      inviterEmail: ada.email,
    });
    expect(ok(await bob.client.organization.listUserInvitations()).map((i) => i.id)).toEqual([invitation.id]);
    ok(await bob.client.organization.acceptInvitation({ invitationId: invitation.id }));
    const carol = await person("carol");
    const toCarol = ok(await ada.client.organization.inviteMember({ email: carol.email, role: "member" }));
    ok(await carol.client.organization.rejectInvitation({ invitationId: toCarol.id }));
    const dave = ok(
      await ada.client.organization.inviteMember({ email: "dave@example.com", role: "member" }),
    );
    ok(await ada.client.organization.cancelInvitation({ invitationId: dave.id }));
    const statuses = await live.db.collection("invitations").find({}).sort({ email: 1 }).toArray();
    expect(statuses.map((i) => [i.email, i.status])).toEqual([
      [bob.email, "accepted"],
      [carol.email, "rejected"],
      ["dave@example.com", "canceled"],
    ]);
  });

  it("members: list, the active member and role, role change, removal; the sole owner cannot leave", async () => {
    const page = ok(await ada.client.organization.listMembers());
    expect(page.members).toHaveLength(2);
    expect(ok(await ada.client.organization.getActiveMember())).toMatchObject({
      userId: ada.id,
      role: "owner",
    });
    expect(ok(await ada.client.organization.getActiveMemberRole())).toEqual({ role: "owner" });
    const bobMember = page.members.find((member) => member.userId === bob.id)!;
    const updated = ok(
      await ada.client.organization.updateMemberRole({ memberId: bobMember.id, role: "admin" }),
    );
    expect(updated.role).toBe("admin");
    failed(await ada.client.organization.leave({ organizationId }), "CANNOT_LEAVE_AS_ONLY_OWNER");
    ok(await bob.client.organization.leave({ organizationId }));
    expect(await live.db.collection("members").countDocuments({ userId: new ObjectId(bob.id) })).toBe(0);
    const again = ok(await ada.client.organization.inviteMember({ email: bob.email, role: "member" }));
    ok(await bob.client.organization.acceptInvitation({ invitationId: again.id }));
    ok(await ada.client.organization.removeMember({ memberIdOrEmail: bob.email }));
    expect(await live.db.collection("members").countDocuments({ userId: new ObjectId(bob.id) })).toBe(0);
  });

  it("teams: create, list, update, members, the active team, removal", async () => {
    const team = ok(await ada.client.organization.createTeam({ name: "Core" }));
    expect(ok(await ada.client.organization.listTeams()).map((t) => t.name)).toContain("Core");
    expect(
      ok(await ada.client.organization.updateTeam({ teamId: team.id, data: { name: "Kernel" } })).name,
    ).toBe("Kernel");
    ok(await ada.client.organization.addTeamMember({ teamId: team.id, userId: ada.id }));
    expect(ok(await ada.client.organization.setActiveTeam({ teamId: team.id }))).toMatchObject({
      id: team.id,
    });
    expect(ok(await ada.client.organization.listTeamMembers()).map((m) => m.userId)).toEqual([ada.id]);
    expect(
      ok(
        await ada.client.organization.updateTeamMemberRole({
          teamId: team.id,
          userId: ada.id,
          role: "team-admin",
        }),
      ).role,
    ).toBe("team-admin");
    ok(await ada.client.organization.removeTeamMember({ teamId: team.id, userId: ada.id }));
    ok(await ada.client.organization.removeTeam({ teamId: team.id }));
    expect(await live.db.collection("teams").countDocuments({ _id: new ObjectId(team.id) })).toBe(0);
  });

  it("the authenticator policy: set, read, and the caller's passkeys checked against it", async () => {
    const policy = { requireUserVerification: true, mode: "any" as const, aaguids: [] };
    expect(ok(await ada.client.organization.setPasskeyPolicy(policy))).toEqual(policy);
    expect(ok(await ada.client.organization.getPasskeyPolicy())).toEqual(policy);
    const check = ok(await ada.client.organization.checkPasskeyPolicy({ organizationId }));
    expect(check).toMatchObject({ policy, passkeys: [] });
  });

  it("delete", async () => {
    ok(await ada.client.organization.delete({ organizationId }));
    expect(await live.db.collection("organizations").countDocuments({ slug: "acme" })).toBe(0);
  });
});

describe("admin methods", () => {
  it("users, roles, bans, sessions, passwords, permissions, audit events, impersonation, removal", async () => {
    await users().updateOne({ _id: new ObjectId(ada.id) }, { $set: { role: "admin" } });
    const admin = ada.client.admin;
    expect(ok(await admin.listUsers()).users.length).toBeGreaterThanOrEqual(3);
    const created = ok(
      await admin.createUser({ email: "erin@example.com", password: PASSWORD, name: "Erin" }),
    ).user;
    expect(ok(await admin.getUser({ id: created.id })).email).toBe("erin@example.com");
    expect(ok(await admin.updateUser({ userId: created.id, data: { name: "Erin B" } })).name).toBe("Erin B");
    expect(ok(await admin.setRole({ userId: created.id, role: "user" })).user.role).toBe("user");
    expect(ok(await admin.banUser({ userId: created.id, banReason: "spam" })).user.banned).toBe(true);
    expect(ok(await admin.unbanUser({ userId: created.id })).user.banned).toBe(false);
    ok(await admin.setUserPassword({ userId: created.id, newPassword: "a brand new password" }));
    expect(ok(await admin.hasPermission({ permissions: { user: ["list"] } }))).toMatchObject({
      success: true,
    });
    expect(ok(await admin.listAuditEvents()).events.length).toBeGreaterThan(0);
    // An account the admin created was mailed nothing (features/mail-outbox lists a user's mails).
    expect(ok(await admin.listUserMails({ userId: created.id })).mails).toEqual([]);

    const impersonated = ok(await admin.impersonateUser({ userId: created.id }));
    expect(impersonated.user.id).toBe(created.id);
    expect(ok(await ada.client.getSession())?.session.impersonatedBy).toBe(ada.id);
    ok(await admin.stopImpersonating());
    expect(ok(await ada.client.getSession())?.user.id).toBe(ada.id);
    const bobSessions = ok(await admin.listUserSessions({ userId: bob.id })).sessions;
    ok(await admin.revokeUserSession({ sessionId: bobSessions[0]!.id }));
    expect(ok(await bob.client.getSession())).toBeNull();
    ok(await admin.revokeUserSessions({ userId: created.id }));
    expect(await live.db.collection("sessions").countDocuments({ userId: new ObjectId(created.id) })).toBe(0);
    ok(await admin.removeUser({ userId: created.id }));
    expect(await users().countDocuments({ _id: new ObjectId(created.id) })).toBe(0);
  });
});

describe("API key methods", () => {
  it("create, get, list, update and delete", async () => {
    const created = ok(await ada.client.apiKey.create({ name: "ci" }));
    expect(created.key.length).toBeGreaterThan(32);
    expect(ok(await ada.client.apiKey.get({ id: created.id })).name).toBe("ci");
    expect(ok(await ada.client.apiKey.list()).apiKeys.map((key) => key.id)).toEqual([created.id]);
    expect(ok(await ada.client.apiKey.update({ keyId: created.id, name: "deploy" })).name).toBe("deploy");
    expect(ok(await ada.client.apiKey.delete({ keyId: created.id }))).toEqual({ success: true });
    expect(await live.db.collection("apiKeys").countDocuments({})).toBe(0);
  });
});

describe("two-factor methods", () => {
  it("enable and confirm with TOTP, new backup codes; sign-in challenge answered by OTP and by a backup code; disable", async () => {
    const enrollment = ok(await ada.client.twoFactor.enable({ password: PASSWORD }));
    const secret = new URL(
      ok(await ada.client.twoFactor.getTotpUri({ password: PASSWORD })).totpURI,
    ).searchParams.get("secret")!;
    expect(enrollment.totpURI).toContain(secret);
    ok(await ada.client.twoFactor.verifyTotp({ code: generateTotp(decodeBase32(secret)!, new Date()) }));
    const { backupCodes } = ok(await ada.client.twoFactor.generateBackupCodes({ password: PASSWORD }));
    ok(await ada.client.signOut());

    const redirects: unknown[] = [];
    const browser = browserLikeFetch(live.origin);
    const challenged = createAuthClient({
      baseURL: live.origin,
      onTwoFactorRedirect: (context) => redirects.push(context),
      fetchOptions: { customFetchImpl: recording(browser) },
    });
    ok(await challenged.signIn.email({ email: ada.email, password: PASSWORD }));
    expect(redirects).toEqual([{ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] }]);
    ok(await challenged.twoFactor.sendOtp());
    const otp = (live.outbox.latestTo(ada.email)?.text ?? "").match(/\b\d{6}\b/)![0];
    expect(ok(await challenged.twoFactor.verifyOtp({ code: otp })).user.id).toBe(ada.id);
    ok(await challenged.signOut());
    ok(await challenged.signIn.email({ email: ada.email, password: PASSWORD }));
    expect(ok(await challenged.twoFactor.verifyBackupCode({ code: backupCodes[0]! })).user.id).toBe(ada.id);
    ok(await challenged.twoFactor.disable({ password: PASSWORD }));
    expect(ok(await challenged.getSession())?.user).toMatchObject({ id: ada.id });
    ada = { ...ada, client: challenged, browser };
  });
});

describe("passwordless methods", () => {
  /** The 6-digit code of the latest mail to `email`. */
  const mailedCode = (email: string) =>
    live.outbox.latestTo(email)?.text.match(/^\s*(\d{6})\s*$/m)?.[1] ?? "";

  it("sign-in by link and by code, sign-up by code, verify-email, check and reset by code", async () => {
    const grace = newClient();
    const email = "grace@example.com";
    expect(ok(await grace.client.signIn.magicLink({ email }))).toEqual({ status: true });
    const token = mailedToken(email, "/magic-link/verify");
    expect(ok(await grace.client.magicLink.confirmation({ token }))).toEqual({ email });
    const byLink = ok(await grace.client.magicLink.verify({ token }));
    expect(byLink).toMatchObject({ user: { email, emailVerified: true } });
    const other = newClient();
    expect(ok(await other.client.emailOtp.sendVerificationOtp({ email, type: "sign-in" }))).toEqual({
      success: true,
    });
    const otp = mailedCode(email);
    expect(ok(await other.client.emailOtp.checkVerificationOtp({ email, type: "sign-in", otp }))).toEqual({
      success: true,
    });
    expect(ok(await other.client.signIn.emailOtp({ email, otp }))).toMatchObject({ user: { email } });
    expect(ok(await other.client.getSession())?.user.email).toBe(email);

    const lin = await person("lin");
    await lin.client.emailOtp.sendVerificationOtp({ email: lin.email, type: "email-verification" });
    const verified = ok(
      await lin.client.emailOtp.verifyEmail({ email: lin.email, otp: mailedCode(lin.email) }),
    );
    expect(verified).toMatchObject({ status: true, user: { emailVerified: true } });
    expect(ok(await lin.client.emailOtp.requestPasswordReset({ email: lin.email }))).toEqual({
      success: true,
    });
    expect(ok(await lin.client.emailOtp.forgetPassword({ email: lin.email }))).toEqual({ success: true });
    // Better Auth's name for the same call.
    expect(ok(await lin.client.forgetPassword.emailOtp({ email: lin.email }))).toEqual({ success: true });
    const reset = await lin.client.emailOtp.resetPassword({
      email: lin.email,
      otp: mailedCode(lin.email),
      password: "a passwordless reset",
    });
    expect(ok(reset)).toEqual({ success: true });
    failed(await lin.client.signIn.emailOtp({ email: lin.email, otp: "000000" }), "INVALID_OTP");
  });
});

describe("passkey methods", () => {
  it("register, list, rename, sign in and delete (the ceremonies' steps, a software authenticator answering)", async () => {
    const kim = await person("kim");
    const authenticator = new SoftwareAuthenticator({ origin: live.origin });
    const options = ok(await kim.client.passkey.generateRegisterOptions({ name: "kim" }));
    const registered = ok(
      await kim.client.passkey.verifyRegistration({
        response: authenticator.createCredential(options),
        name: "Laptop",
      }),
    );
    expect(registered).toMatchObject({
      name: "Laptop",
      userId: kim.id,
      credentialID: authenticator.credentialID,
    });
    expect(ok(await kim.client.passkey.listUserPasskeys()).map((passkey) => passkey.id)).toEqual([
      registered.id,
    ]);
    const renamed = ok(await kim.client.passkey.updatePasskey({ id: registered.id, name: "Work" }));
    expect(renamed.passkey.name).toBe("Work");

    ok(await kim.client.signOut());
    const challenge = ok(await kim.client.passkey.generateAuthenticateOptions());
    const signedIn = ok(
      await kim.client.passkey.verifyAuthentication({ response: authenticator.getAssertion(challenge) }),
    );
    expect(signedIn).toMatchObject({ user: { id: kim.id } });
    expect(ok(await kim.client.getSession())?.user.id).toBe(kim.id);
    expect(ok(await kim.client.passkey.deletePasskey({ id: registered.id }))).toEqual({ status: true });
    expect(await live.db.collection("passkeys").countDocuments({ userId: new ObjectId(kim.id) })).toBe(0);

    // An admin's view of a user's passkeys, and removing one.
    const phone = new SoftwareAuthenticator({ origin: live.origin });
    const again = ok(await kim.client.passkey.generateRegisterOptions());
    const second = ok(
      await kim.client.passkey.verifyRegistration({ response: phone.createCredential(again) }),
    );
    const seen = ok(await ada.client.admin.listUserPasskeys({ userId: kim.id }));
    expect(seen.passkeys.map((passkey) => passkey.id)).toEqual([second.id]);
    const removed = ok(await ada.client.admin.removeUserPasskey({ userId: kim.id, passkeyId: second.id }));
    expect(removed).toEqual({ success: true });
    expect(await live.db.collection("passkeys").countDocuments({ userId: new ObjectId(kim.id) })).toBe(0);
  });

  it("the ceremony methods answer PASSKEY_NOT_SUPPORTED where there is no WebAuthn (Node), sending nothing", async () => {
    const { client, browser } = newClient();
    const unsupported = {
      data: null,
      error: { status: 0, code: "PASSKEY_NOT_SUPPORTED", message: "This browser does not support passkeys" },
    };
    expect(await client.signIn.passkey()).toEqual(unsupported);
    expect(await client.passkey.addPasskey({ name: "Laptop" })).toEqual(unsupported);
    expect(await client.signUp.passkey({ email: "nobody@example.com" })).toEqual(unsupported);
    expect(await client.signIn.passkey({ autoFill: true })).toEqual({
      data: null,
      error: { ...unsupported.error, message: "This browser does not offer passkeys in form fields" },
    });
    expect(browser.seen).toEqual([]);
  });
});

describe("SSO connection methods", () => {
  it("register refuses an IdP on a private address; the rest answer for connections the caller manages", async () => {
    const olivia = await person("olivia");
    const organizationId = ok(
      await olivia.client.organization.create({ name: "Initech", slug: "initech" }),
    ).id;
    const registered = await olivia.client.sso.register({
      providerId: "initech",
      issuer: "https://127.0.0.1:9/",
      domain: "initech.test",
      organizationId,
      oidcConfig: { clientId: "client", clientSecret: "secret" },
    });
    failed(registered, "SSO_URL_NOT_ALLOWED");
    expect(ok(await olivia.client.sso.providers())).toEqual({ providers: [] });
    failed(await olivia.client.sso.getProvider({ providerId: "initech" }), "SSO_PROVIDER_NOT_FOUND");
    failed(
      await olivia.client.sso.updateProvider({ providerId: "initech", enabled: false }),
      "SSO_PROVIDER_NOT_FOUND",
    );
    failed(await olivia.client.sso.testProvider({ providerId: "initech" }), "SSO_PROVIDER_NOT_FOUND");
    failed(await olivia.client.sso.deleteProvider({ providerId: "initech" }), "SSO_PROVIDER_NOT_FOUND");
    failed(
      await olivia.client.signIn.sso({ providerId: "initech", callbackURL: `${live.origin}/` }),
      "SSO_PROVIDER_NOT_FOUND",
    );
    // The IT admin's setup link: made by the owner, opened once.
    const link = ok(await olivia.client.sso.createSetupLink({ organizationId }));
    expect(link.url).toMatch(new RegExp(`^${live.origin}/sso-setup/[A-Za-z0-9]{43}$`));
    const token = link.url.slice(link.url.lastIndexOf("/") + 1);
    expect(ok(await olivia.client.sso.openSetupLink({ token }))).toMatchObject({
      organization: { id: organizationId, name: "Initech", slug: "initech" },
    });
    failed(await olivia.client.sso.openSetupLink({ token }), "SSO_SETUP_LINK_INVALID");
  });
});

describe("SCIM token methods", () => {
  it("generates a token shown once, lists the connection without it, deletes it", async () => {
    const sam = await person("sam");
    const organizationId = ok(await sam.client.organization.create({ name: "Hooli", slug: "hooli" })).id;
    const generated = ok(await sam.client.scim.generateToken({ organizationId, providerId: "okta" }));
    expect(generated).toMatchObject({ organizationId, providerId: "okta" });
    expect(generated.scimToken).toMatch(/^scim_/);
    const listed = ok(await sam.client.scim.listProviderConnections({ organizationId }));
    expect(listed.providers.map((provider) => provider.providerId)).toEqual(["okta"]);
    expect(JSON.stringify(listed)).not.toContain(generated.scimToken);
    expect(
      ok(await sam.client.scim.deleteProviderConnection({ organizationId, providerId: "okta" })),
    ).toEqual({ success: true });
    failed(
      await sam.client.scim.deleteProviderConnection({ organizationId, providerId: "okta" }),
      "SCIM_CONNECTION_NOT_FOUND",
    );
  });
});

describe("webhook, verified domain and event listing methods", () => {
  // A second server: webhooks on and private addresses allowed (the receiver is on 127.0.0.1), which
  // the first must not allow (its SSO test expects an IdP on 127.0.0.1 refused).
  const testbed = useDomainTestbed();
  let hooks: LiveServer;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    hooks = await startLiveServer({
      webhooks: { enabled: true, pollInterval: 50 },
      outbound: { allowPrivateAddresses: true },
      ...testbed.options,
    });
  });
  afterAll(async () => {
    await hooks?.close();
    await receiver?.close();
  });

  it("webhooks: create, read, update, test, deliveries, replay, rotate the secret, delete", async () => {
    const wes = await person("wes", hooks);
    const organizationId = ok(await wes.client.organization.create({ name: "Hooks", slug: "hooks" })).id;
    const created = ok(await wes.client.webhooks.create({ organizationId, url: receiver.url }));
    expect(created.secret).toMatch(/^whsec_/);
    const endpointId = created.endpoint.id;
    const ref = { organizationId, endpointId };
    expect(ok(await wes.client.webhooks.list({ organizationId })).map((endpoint) => endpoint.id)).toEqual([
      endpointId,
    ]);
    expect(ok(await wes.client.webhooks.get(ref))).toMatchObject({ url: receiver.url, enabled: true });
    const updated = ok(await wes.client.webhooks.update({ ...ref, description: "billing" }));
    expect(updated.description).toBe("billing");

    const queued = ok(await wes.client.webhooks.test(ref));
    expect(queued).toMatchObject({ endpointId, eventType: "webhook.test" });
    const [first] = await receiver.waitForDelivered(1);
    expect(JSON.parse(first!.body)).toMatchObject({ type: "webhook.test" });
    await expect
      .poll(async () => ok(await wes.client.webhooks.deliveries(ref)).find((d) => d.id === queued.id)?.status)
      .toBe("delivered");
    expect(ok(await wes.client.webhooks.replay({ ...ref, deliveryId: queued.id }))).toEqual({ replayed: 1 });
    const [, again] = await receiver.waitForDelivered(2);
    expect(again!.id).toBe(first!.id);

    const rotated = ok(await wes.client.webhooks.rotateSecret(ref));
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(ok(await wes.client.webhooks.delete(ref))).toEqual({ success: true });
    expect(ok(await wes.client.webhooks.list({ organizationId }))).toEqual([]);
  });

  it("verified domains: add, prove by DNS, list, settings, remove; event listings", async () => {
    const dee = await person("dee", hooks);
    const organizationId = ok(await dee.client.organization.create({ name: "Initech", slug: "initech" })).id;
    const claimed = ok(await dee.client.organization.addDomain({ organizationId, domain: "Initech.test" }));
    expect(claimed).toMatchObject({ domain: "initech.test", status: "pending", method: null });
    testbed.dns.setTxt(claimed.proof!.txtName, [[claimed.proof!.txtValue]]);
    const verified = ok(
      await dee.client.organization.verifyDomain({ organizationId, domain: "initech.test" }),
    );
    expect(verified).toMatchObject({ status: "verified", method: "dns", proof: null });
    expect(ok(await dee.client.organization.listDomains({ organizationId })).map((d) => d.domain)).toEqual([
      "initech.test",
    ]);
    const settled = ok(
      await dee.client.organization.updateDomainSettings({
        organizationId,
        domain: "initech.test",
        autoJoin: true,
      }),
    );
    expect(settled.settings).toMatchObject({ autoJoin: true, requireSso: false });
    expect(
      ok(await dee.client.organization.removeDomain({ organizationId, domain: "initech.test" })),
    ).toEqual({ domain: "initech.test" });
    expect(ok(await dee.client.organization.listDomains({ organizationId }))).toEqual([]);
    // Those four changes, in the organization's audit trail (newest first), by the one who made them.
    const trail = ok(await dee.client.organization.listAuditEvents({ organizationId, userId: dee.id }));
    expect(trail.events.map((event) => event.action)).toEqual([
      "organization.domain-remove",
      "organization.domain-settings",
      "organization.domain-verify",
      "organization.domain-claim",
    ]);

    // The organization's creation, in its own listing and in the admin's.
    const created = { type: "organization.created", organizationId };
    await expect
      .poll(async () => ok(await dee.client.organization.listEvents({ organizationId })).events)
      .toContainEqual(expect.objectContaining(created));
    failed(await dee.client.admin.listEvents({ organizationId }), "RESOURCE_ACCESS_NOT_ALLOWED");
    await hooks.db.collection("users").updateOne({ _id: new ObjectId(dee.id) }, { $set: { role: "admin" } });
    const page = ok(await dee.client.admin.listEvents({ type: "organization.created", organizationId }));
    expect(page.events).toEqual([expect.objectContaining(created)]);
  });
});

describe("account deletion", () => {
  it("delete-user with the password; the callback refuses an unknown token", async () => {
    failed(await ada.client.deleteUserCallback({ token: "not-a-token" }), "INVALID_TOKEN");
    expect(ok(await ada.client.deleteUser({ password: PASSWORD }))).toMatchObject({ success: true });
    expect(await users().countDocuments({ _id: new ObjectId(ada.id) })).toBe(0);
    expect(ok(await ada.client.getSession())).toBeNull();
  });
});

describe("coverage", () => {
  it("every method of the client was called", () => {
    const routes = (table: RouteTable): string[] =>
      Object.values(table).flatMap((route) =>
        typeof route === "string"
          ? [`${route[0] === "G" ? "GET" : "POST"} ${route.slice(1)}`]
          : routes(route),
      );
    expect(routes(ROUTES).filter((route) => !called.has(route))).toEqual([]);
  });

  it("every answer conforms to the OpenAPI document for its operation and status", async () => {
    const document = await (await fetch(`${live.origin}/api/auth/openapi.json`)).json();
    const check = createConformanceChecker(document);
    expect(answers.length).toBeGreaterThan(100);
    expect(answers.flatMap(check)).toEqual([]);
  });
});
