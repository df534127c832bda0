import { describe, expect, it } from "vitest";
import { challengedBrowser, rowsLike, sessionsOf, useTwoFactorFixtures } from "#test/two-factor.ts";
import type { TwoFactorDoc } from "../../db/documents.ts";
import { regenerateBackupCodes } from "./service.ts";

const twoFactor = useTwoFactorFixtures();

describe("backup codes under races", () => {
  it("a backup code sent with a TOTP code on one challenge is spent only when it won the sign-in", async () => {
    const { t, userId, code, backupCodes } = await twoFactor.enrolled();
    for (let round = 0; round < 8; round++) {
      const browser = await challengedBrowser(t);
      const before = await sessionsOf(t, userId);
      const used = await rowsLike(t, "two-factor-backup-used:");
      const [totp, backup] = await Promise.all([
        browser.post("/two-factor/verify-totp", { code: code() }),
        browser.post("/two-factor/verify-backup-code", { code: backupCodes[round] }),
      ]);
      expect([totp.status, backup.status].filter((status) => status === 200)).toHaveLength(1);
      expect(await sessionsOf(t, userId)).toBe(before + 1);
      const spent = (await rowsLike(t, "two-factor-backup-used:")).length - used.length;
      expect([round, spent]).toEqual([round, backup.status === 200 ? 1 : 0]);
      t.advance(30);
    }
  });

  it("regenerating deletes the replaced set's markers only, never those of another set", async () => {
    const { t, userId } = await twoFactor.enrolled();
    const doc = (await t.db.collection("twoFactors").findOne({ userId })) as unknown as TwoFactorDoc;
    const user = userId.toHexString();
    const marker = (batch: string) => ({
      identifier: `two-factor-backup-used:${user}:${batch}:0`,
      value: "",
      expiresAt: new Date("9999-12-31T00:00:00.000Z"),
      createdAt: t.now(),
      updatedAt: t.now(),
    });
    // A marker of the set being replaced, and one of a set a parallel call wrote.
    await t.db
      .collection("verifications")
      .insertMany([marker(doc.backupCodesBatch), marker("newerBatch000000")]);
    await regenerateBackupCodes(t.auth.context, doc);
    const left = await rowsLike(t, "two-factor-backup-used:");
    expect(left.map((row) => row.identifier)).toEqual([`two-factor-backup-used:${user}:newerBatch000000:0`]);
  });
});
