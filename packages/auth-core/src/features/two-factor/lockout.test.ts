import { describe, expect, it } from "vitest";
import type { TestBrowser } from "#test/browser.ts";
import type { TestAuth } from "#test/test-auth.ts";
import {
  challengedBrowser,
  ERR,
  PASSWORD,
  rowsLike,
  sessionsOf,
  useTwoFactorFixtures,
} from "#test/two-factor.ts";

const twoFactor = useTwoFactorFixtures();

/** The per-user lock (lockout.ts): docs/security.md (no lockout by a stolen session) and E19. */
const wrongCode = (right: string) => (right === "000000" ? "000001" : "000000");
const HARD_LOCKED = {
  code: "TWO_FACTOR_LOCKED",
  message: "Too many failed attempts. Sign in with a backup code.",
};

/** Two challenges × 5 wrong TOTP codes: one run of 10 failures. */
async function failTen(t: TestAuth, code: () => string): Promise<void> {
  for (const _ of [1, 2]) {
    const browser = await challengedBrowser(t);
    for (let i = 0; i < 5; i++) {
      const res = await browser.post("/two-factor/verify-totp", { code: wrongCode(code()) });
      expect(res.body).toEqual(ERR.INVALID_CODE);
    }
  }
}

async function tryTotp(
  t: TestAuth,
  code: string,
): Promise<{ status: number; body: unknown; retry: number; browser: TestBrowser }> {
  const browser = await challengedBrowser(t);
  const res = await browser.post("/two-factor/verify-totp", { code });
  const retry = Number(res.headers.get("x-retry-after"));
  if (res.status === 429) expect(res.headers.get("retry-after")).toBe(String(retry));
  return { status: res.status, body: res.body, retry, browser };
}

describe("the per-user sign-in lock", () => {
  it("a stolen session's wrong codes use the session's own allowance and never lock the owner's sign-in", async () => {
    const { t, ada, userId, code } = await twoFactor.enrolled();
    const answers = [];
    for (let i = 0; i < 10; i++)
      answers.push((await ada.post("/two-factor/verify-totp", { code: wrongCode(code()) })).body);
    expect(answers).toEqual([...Array(5).fill(ERR.INVALID_CODE), ...Array(5).fill(ERR.TOO_MANY)]);
    expect(await rowsLike(t, "two-factor-session-attempt:")).toHaveLength(5);
    expect(await rowsLike(t, "two-factor-user-attempt:")).toEqual([]);
    // Even the right code is refused on that session now …
    expect((await ada.post("/two-factor/verify-totp", { code: code() })).body).toEqual(ERR.TOO_MANY);
    // … while the owner signs in with hers.
    const before = await sessionsOf(t, userId);
    const owner = await tryTotp(t, code());
    expect(owner.status).toBe(200);
    expect(await sessionsOf(t, userId)).toBe(before + 1);
  });

  it("a valid backup code gets past a lock that someone's wrong codes caused, and clears it", async () => {
    const { t, userId, code, backupCodes } = await twoFactor.enrolled();
    await failTen(t, code);
    const locked = await tryTotp(t, code());
    expect({ status: locked.status, body: locked.body }).toEqual({ status: 429, body: ERR.LOCKED });
    const before = await sessionsOf(t, userId);
    const wrongBackup = await locked.browser.post("/two-factor/verify-backup-code", { code: "aaaaa-aaaaa" });
    expect({ status: wrongBackup.status, body: wrongBackup.body }).toEqual({
      status: 401,
      body: ERR.INVALID_BACKUP_CODE,
    });
    const res = await locked.browser.post("/two-factor/verify-backup-code", { code: backupCodes[0] });
    expect(res.status).toBe(200);
    expect(await sessionsOf(t, userId)).toBe(before + 1);
    expect(await rowsLike(t, "two-factor-user-attempt:")).toEqual([]);
    t.advance(30);
    expect((await tryTotp(t, code())).status).toBe(200);
  });

  it("counts failures across windows and doubles the lock: 15 min after 10, 30 min after 20", async () => {
    const { t, code } = await twoFactor.enrolled();
    await failTen(t, code);
    const first = await tryTotp(t, code());
    expect({ status: first.status, body: first.body }).toEqual({ status: 429, body: ERR.LOCKED });
    expect(first.retry).toBeGreaterThan(890);
    expect(first.retry).toBeLessThanOrEqual(900);
    t.advance(900);
    await failTen(t, code);
    const second = await tryTotp(t, code());
    expect({ status: second.status, body: second.body }).toEqual({ status: 429, body: ERR.LOCKED });
    expect(second.retry).toBeGreaterThan(1790);
    expect(second.retry).toBeLessThanOrEqual(1800);
    t.advance(1000);
    expect((await tryTotp(t, code())).body).toEqual(ERR.LOCKED);
    expect(await rowsLike(t, "two-factor-user-attempt:")).toHaveLength(20);
    t.advance(800);
    expect((await tryTotp(t, code())).status).toBe(200);
    expect(await rowsLike(t, "two-factor-user-attempt:")).toEqual([]);
  });

  it("locks TOTP and emailed codes for good after 100 consecutive failures; a backup code or the owner's disable lifts it", async () => {
    const { t, userId, code, backupCodes } = await twoFactor.enrolled();
    // 90 earlier failures, long ago, then the last run of 10 through the endpoint.
    const prefix = `two-factor-user-attempt:${userId.toHexString()}:`;
    const longAgo = new Date(t.now().getTime() - 365 * 86400_000);
    await t.db.collection("verifications").insertMany(
      Array.from({ length: 90 }, (_, i) => ({
        identifier: `${prefix}${i + 1}`,
        value: "",
        expiresAt: new Date("9999-12-31T00:00:00.000Z"),
        createdAt: longAgo,
        updatedAt: longAgo,
      })),
    );
    await failTen(t, code);
    t.advance(10 * 365 * 86400);
    const locked = await tryTotp(t, code());
    expect({ status: locked.status, body: locked.body }).toEqual({ status: 403, body: HARD_LOCKED });
    const otp = await locked.browser.post("/two-factor/verify-otp", { code: "123456" });
    expect(otp.body).toEqual(HARD_LOCKED);
    expect(await rowsLike(t, "two-factor-user-attempt:")).toHaveLength(100);
    expect(
      (await locked.browser.post("/two-factor/verify-backup-code", { code: backupCodes[1] })).status,
    ).toBe(200);
    expect(await rowsLike(t, "two-factor-user-attempt:")).toEqual([]);
    // Locked again, then the owner (signed in) disables two-factor: the slots go with it.
    await t.db.collection("verifications").insertMany(
      Array.from({ length: 100 }, (_, i) => ({
        identifier: `${prefix}${i + 1}`,
        value: "",
        expiresAt: new Date("9999-12-31T00:00:00.000Z"),
        createdAt: longAgo,
        updatedAt: longAgo,
      })),
    );
    // (Her enrolling session expired in those ten years: the one the backup code gave her.)
    const owner = locked.browser;
    expect((await owner.post("/two-factor/disable", { password: PASSWORD })).status).toBe(200);
    expect(await rowsLike(t, "two-factor-user-attempt:")).toEqual([]);
  });

  it("30 parallel wrong codes after a lock ended: exactly 10 tested before the next lock", async () => {
    const { t, code } = await twoFactor.enrolled();
    await failTen(t, code);
    t.advance(900);
    // One challenge after another: parallel password attempts on one account would meet the sign-in
    // throttle (features/sign-in-throttle), which is not what this test is about.
    const browsers = [];
    for (let i = 0; i < 6; i++) browsers.push(await challengedBrowser(t));
    const answers = await Promise.all(
      browsers.flatMap((browser) =>
        Array.from({ length: 5 }, () => browser.post("/two-factor/verify-totp", { code: wrongCode(code()) })),
      ),
    );
    const codes = answers.map((res) => (res.body as { code: string }).code);
    expect(codes.filter((c) => c === "INVALID_CODE")).toHaveLength(10);
    expect(codes.filter((c) => c === "ACCOUNT_TEMPORARILY_LOCKED")).toHaveLength(20);
    expect(await rowsLike(t, "two-factor-user-attempt:")).toHaveLength(20);
  });
});
