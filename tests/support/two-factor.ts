import type { AuthOptions } from "@tessera/auth-core";
import { ObjectId } from "mongodb";
import { expect } from "vitest";
import { decodeBase32, generateTotp } from "../../packages/auth-core/src/crypto/totp.ts";
import { SESSION_COOKIE, signUp, TestBrowser } from "./browser.ts";
import { closeAfterEach, createTestAuth, type TestAuth } from "./test-auth.ts";

export const PASSWORD = "correct horse battery";
export const EMAIL = "ada@example.com";
export const CHALLENGE_COOKIE = "tessera.two_factor";
export const TRUST_COOKIE = "tessera.trust_device";

export const ERR = {
  INVALID_CODE: { code: "INVALID_CODE", message: "Invalid code" },
  INVALID_BACKUP_CODE: { code: "INVALID_BACKUP_CODE", message: "Invalid backup code" },
  INVALID_COOKIE: { code: "INVALID_TWO_FACTOR_COOKIE", message: "Invalid two factor cookie" },
  TOO_MANY: {
    code: "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE",
    message: "Too many attempts. Please request a new code.",
  },
  LOCKED: {
    code: "ACCOUNT_TEMPORARILY_LOCKED",
    message: "Account temporarily locked due to too many failed attempts. Try again later.",
  },
  OTP_EXPIRED: { code: "OTP_HAS_EXPIRED", message: "OTP has expired" },
  OTP_NOT_ENABLED: { code: "OTP_NOT_ENABLED", message: "OTP not enabled" },
  NOT_ENABLED: { code: "TWO_FACTOR_NOT_ENABLED", message: "Two factor isn't enabled" },
  ALREADY_ENABLED: { code: "TWO_FACTOR_ALREADY_ENABLED", message: "Two factor is already enabled" },
  TOTP_NOT_ENABLED: { code: "TOTP_NOT_ENABLED", message: "TOTP not enabled" },
  INVALID_PASSWORD: { code: "INVALID_PASSWORD", message: "Invalid password" },
  NO_CREDENTIAL: { code: "CREDENTIAL_ACCOUNT_NOT_FOUND", message: "Credential account not found" },
  UNAUTHORIZED: { code: "UNAUTHORIZED", message: "unauthorized" },
  TOO_MANY_REQUESTS: { code: "TOO_MANY_REQUESTS", message: "Too many requests. Please try again later." },
} as const;

export interface Enrolled {
  t: TestAuth;
  /** Ada's browser, signed in (the session she enrolled with). */
  ada: TestBrowser;
  userId: ObjectId;
  secret: string;
  backupCodes: string[];
  /** The TOTP code of the secret at the test clock's now (plus `offsetSteps` steps). */
  code(offsetSteps?: number): string;
}

export function totpFromURI(uri: string): string {
  const secret = new URL(uri).searchParams.get("secret");
  if (!secret) throw new Error(`no secret in ${uri}`);
  return secret;
}

export function codeAt(secret: string, at: Date): string {
  return generateTotp(decodeBase32(secret)!, at);
}

type Overrides = Omit<Partial<AuthOptions>, "database">;

/** Ada signs up and calls enable; two-factor is pending (not confirmed). */
async function createPending(overrides: Overrides = {}): Promise<Enrolled> {
  const t = await createTestAuth(overrides);
  const ada = new TestBrowser(t.auth);
  const signedUp = await signUp(ada, { email: EMAIL, password: PASSWORD });
  expect(signedUp.status).toBe(200);
  const res = await ada.post<{ totpURI: string; backupCodes: string[] }>("/two-factor/enable", {
    password: PASSWORD,
  });
  expect(res.status).toBe(200);
  const secret = totpFromURI(res.body.totpURI);
  return {
    t,
    ada,
    userId: new ObjectId(signedUp.body.user.id),
    secret,
    backupCodes: res.body.backupCodes,
    code: (offsetSteps = 0) => codeAt(secret, new Date(t.now().getTime() + offsetSteps * 30_000)),
  };
}

/** Ada with two-factor active (enable + a first TOTP code), her enrolling session kept. */
export async function createEnrolled(overrides: Overrides = {}): Promise<Enrolled> {
  const enrolled = await createPending(overrides);
  const res = await enrolled.ada.post("/two-factor/verify-totp", { code: enrolled.code() });
  expect(res.status).toBe(200);
  // The next code a test sends must be from a later step: the one above is spent (replay refusal).
  enrolled.t.advance(30);
  return enrolled;
}

/**
 * `createPending` and `createEnrolled` for a test file: every instance they open is closed after the
 * test that opened it.
 */
export function useTwoFactorFixtures(): {
  pending(overrides?: Overrides): Promise<Enrolled>;
  enrolled(overrides?: Overrides): Promise<Enrolled>;
} {
  const track = closeAfterEach<TestAuth>();
  return {
    pending: async (overrides) => {
      const value = await createPending(overrides);
      track(value.t);
      return value;
    },
    enrolled: async (overrides) => {
      const value = await createEnrolled(overrides);
      track(value.t);
      return value;
    },
  };
}

/** A fresh browser that signs in as Ada with her password and receives a challenge. */
export async function challengedBrowser(t: TestAuth, rememberMe?: boolean): Promise<TestBrowser> {
  const browser = new TestBrowser(t.auth);
  const res = await browser.post("/sign-in/email", {
    email: EMAIL,
    password: PASSWORD,
    ...(rememberMe === undefined ? {} : { rememberMe }),
  });
  expect(res.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] });
  expect(browser.cookies.has(CHALLENGE_COOKIE)).toBe(true);
  expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  return browser;
}

export function sessionsOf(t: TestAuth, userId: ObjectId): Promise<number> {
  return t.db.collection("sessions").countDocuments({ userId });
}

export function rowsLike(t: TestAuth, prefix: string) {
  return t.db
    .collection("verifications")
    .find({ identifier: { $regex: `^${prefix}` } })
    .toArray();
}

/** Every stored value of the feature, for "no plaintext secret or code in the database" checks. */
export async function storedText(t: TestAuth): Promise<string> {
  const twoFactors = await t.db.collection("twoFactors").find({}).toArray();
  const rows = await t.db.collection("verifications").find({}).toArray();
  return JSON.stringify({ twoFactors, rows });
}
