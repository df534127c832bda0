import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, TestBrowser } from "#test/browser.ts";
import {
  challengedBrowser,
  EMAIL,
  PASSWORD,
  rowsLike,
  sessionsOf,
  TRUST_COOKIE,
  useTwoFactorFixtures,
} from "#test/two-factor.ts";
import { deleteUserTwoFactorData } from "./index.ts";

const twoFactor = useTwoFactorFixtures();

describe("completing a challenge", () => {
  it("a user banned while the challenge is pending gets no session (the ban check runs at completion)", async () => {
    const { t, userId, code } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t);
    await t.db.collection("users").updateOne({ _id: userId }, { $set: { banned: true, banExpires: null } });
    const before = await sessionsOf(t, userId);
    const res = await browser.post("/two-factor/verify-totp", { code: code() });
    expect(res.status).toBe(403);
    expect((res.body as { code: string }).code).toBe("BANNED_USER");
    expect(await sessionsOf(t, userId)).toBe(before);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it("works through the server API too (auth.api), forwarding the challenge cookie", async () => {
    const { t, code } = await twoFactor.enrolled();
    const signIn = await t.auth.api.signInEmail({ body: { email: EMAIL, password: PASSWORD } });
    expect(signIn.data).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] });
    const cookie = signIn.headers
      .getSetCookie()
      .find((line) => line.startsWith("tessera.two_factor="))!
      .split(";")[0]!;
    const verified = await t.auth.api.verifyTOTP({
      body: { code: code() },
      headers: new Headers({ cookie }),
    });
    expect((verified.data as { token: string }).token).toMatch(/^[A-Za-z0-9]{32}$/);
  });
});

describe("cookies over https", () => {
  it("the challenge and trusted-device cookies are __Secure- prefixed and Secure", async () => {
    const value = await twoFactor.enrolled({
      baseURL: "https://auth.example.com",
      trustedOrigins: ["http://localhost:3000"],
    });
    const browser = new TestBrowser(value.t.auth);
    const res = await browser.post("/sign-in/email", { email: EMAIL, password: PASSWORD });
    const lines = res.headers.getSetCookie();
    expect(lines.find((l) => l.startsWith("__Secure-tessera.two_factor="))).toMatch(
      /^__Secure-tessera\.two_factor=[^;]+; Max-Age=600; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
    expect(lines.find((l) => l.startsWith("__Secure-tessera.known_device="))).toContain("; Secure");
    const done = await browser.post("/two-factor/verify-totp", { code: value.code(), trustDevice: true });
    expect(done.status).toBe(200);
    const trust = done.headers.getSetCookie().find((l) => l.startsWith("__Secure-tessera.trust_device="));
    expect(trust).toContain("; Secure");
  });
});

describe("deleteUserTwoFactorData (for user deletion)", () => {
  it("removes the document, trusted devices, used-code markers and attempt slots of that user only", async () => {
    const { t, userId, code, backupCodes } = await twoFactor.enrolled();
    const trusted = await challengedBrowser(t);
    await trusted.post("/two-factor/verify-totp", { code: code(), trustDevice: true });
    expect(trusted.cookies.has(TRUST_COOKIE)).toBe(true);
    const other = await challengedBrowser(t);
    await other.post("/two-factor/verify-backup-code", { code: "aaaaa-aaaaa" });
    await other.post("/two-factor/verify-backup-code", { code: backupCodes[0] });
    const user = userId.toHexString();
    expect(await rowsLike(t, `two-factor-backup-used:${user}:`)).toHaveLength(1);
    await t.db.collection("verifications").insertOne({
      identifier: "two-factor-trust:ffffffffffffffffffffffff:x",
      value: "someone else",
      expiresAt: new Date(t.now().getTime() + 1000_000),
      createdAt: t.now(),
      updatedAt: t.now(),
    });
    await deleteUserTwoFactorData(t.auth.context, userId);
    expect(await t.db.collection("twoFactors").countDocuments({ userId })).toBe(0);
    expect(await rowsLike(t, `two-factor-trust:${user}:`)).toEqual([]);
    expect(await rowsLike(t, `two-factor-backup-used:${user}:`)).toEqual([]);
    expect(await rowsLike(t, `two-factor-user-attempt:${user}:`)).toEqual([]);
    expect(await rowsLike(t, "two-factor-trust:ffffffffffffffffffffffff:")).toHaveLength(1);
  });
});
