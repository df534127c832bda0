import { describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import { PASSWORDLESS } from "#test/passwordless.ts";
import { useTestAuth } from "#test/test-auth.ts";

const t = useTestAuth(PASSWORDLESS);

const INVALID_EMAIL = { code: "INVALID_EMAIL", message: "Invalid email" };
const INVALID_OTP = { code: "INVALID_OTP", message: "Invalid OTP" };
const INVALID_TOKEN = { code: "INVALID_TOKEN", message: "invalid token" };

/** Every collection's document count: a refused call must change none of them. */
async function counts(): Promise<Record<string, number>> {
  const names = (await t.db.listCollections().toArray()).map((c) => c.name).sort();
  const entries = await Promise.all(names.map(async (n) => [n, await t.db.collection(n).countDocuments({})]));
  return Object.fromEntries(entries);
}

const CASES: [string, string, unknown, number, unknown][] = [
  ["POST", "/sign-in/magic-link", { email: "not-an-address" }, 400, INVALID_EMAIL],
  [
    "POST",
    "/sign-in/magic-link",
    { email: "ada@example.com", callbackURL: "https://evil.example/" },
    403,
    {
      code: "INVALID_CALLBACK_URL",
      message: "Invalid callbackURL",
    },
  ],
  [
    "POST",
    "/email-otp/send-verification-otp",
    { email: "ada@example.com", type: "change-email" },
    400,
    {
      code: "VALIDATION_ERROR",
    },
  ],
  ["POST", "/email-otp/send-verification-otp", { email: "x@", type: "sign-in" }, 400, INVALID_EMAIL],
  ["POST", "/sign-in/email-otp", { email: "ada@example.com", otp: "12ab56" }, 400, INVALID_OTP],
  [
    "POST",
    "/sign-in/email-otp",
    { email: "ada@example.com", otp: "1".repeat(33) },
    400,
    { code: "VALIDATION_ERROR" },
  ],
  ["POST", "/sign-in/email-otp", { email: "ada@example.com" }, 400, { code: "VALIDATION_ERROR" }],
  ["POST", "/email-otp/verify-email", { email: "ada@example.com", otp: "000000" }, 400, INVALID_OTP],
  [
    "POST",
    "/email-otp/check-verification-otp",
    { email: "ada@example.com", type: "sign-in", otp: "" },
    400,
    INVALID_OTP,
  ],
  [
    "POST",
    "/email-otp/reset-password",
    { email: "ada@example.com", otp: "000000", password: "x" },
    400,
    {
      code: "PASSWORD_TOO_SHORT",
      message: "Password too short",
    },
  ],
  ["POST", "/magic-link/verify", { token: "nope" }, 400, INVALID_TOKEN],
  ["POST", "/magic-link/verify", { token: "A".repeat(32), extra: 1 }, 400, { code: "VALIDATION_ERROR" }],
];

describe("bad input to the passwordless endpoints", () => {
  for (const [method, path, body, status, answer] of CASES) {
    it(`${path} ${JSON.stringify(body).slice(0, 60)} → ${status}, nothing stored`, async () => {
      const before = await counts();
      const res = await new TestBrowser(t.auth).request(method, path, { body });
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject(answer as object);
      expect(await counts()).toEqual(before);
    });
  }

  it("a dead link's GET goes to the app with error=INVALID_TOKEN; an unsafe callbackURL is refused", async () => {
    const dead = await new TestBrowser(t.auth).get("/magic-link/verify?token=nope&callbackURL=%2Fhome");
    expect(dead.status).toBe(302);
    expect(dead.headers.get("location")).toBe("/home?error=INVALID_TOKEN");
    const evil = await new TestBrowser(t.auth).get(
      "/magic-link/verify?token=nope&callbackURL=%2F%2Fevil.example",
    );
    expect(evil.status).toBe(403);
    expect(evil.headers.get("location")).toBeNull();
  });
});
