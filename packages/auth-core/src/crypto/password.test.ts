import { describe, expect, it } from "vitest";
import { hashPassword, spendPasswordWork, verifyPassword } from "./password.ts";

describe("password hashing", () => {
  it("verifies the right password and refuses a wrong one", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash.startsWith("s1$")).toBe(true);
    expect(await verifyPassword(hash, "correct horse battery")).toEqual({ valid: true, needsRehash: false });
    expect(await verifyPassword(hash, "correct horse batterY")).toEqual({ valid: false, needsRehash: false });
  });

  it("normalises with NFKC, so composed and decomposed forms match", async () => {
    const hash = await hashPassword("caf\u00e9 au lait");
    expect((await verifyPassword(hash, "cafe\u0301 au lait")).valid).toBe(true);
  });

  it("asks for a re-hash when the stored parameters are weaker than the current ones", async () => {
    const weak = await hashPassword("correct horse battery", { logN: 10, r: 8, p: 1 });
    expect(await verifyPassword(weak, "correct horse battery")).toEqual({ valid: true, needsRehash: true });
  });

  it("treats a malformed stored hash as a failed check, not an exception", async () => {
    for (const stored of ["", "plain", "s1$", "s1$!!!notbase64", "$2b$10$abcdefghijklmnopqrstuv"]) {
      expect((await verifyPassword(stored, "x")).valid).toBe(false);
    }
  });

  it("runs many hashes concurrently to completion (the slot queue never loses a waiter)", async () => {
    const hashes = await Promise.all(
      Array.from({ length: 9 }, (_, i) => hashPassword(`password-${i}`, { logN: 10, r: 8, p: 1 })),
    );
    expect(new Set(hashes).size).toBe(9);
    await Promise.all(Array.from({ length: 5 }, () => spendPasswordWork("x", { logN: 10, r: 8, p: 1 })));
    const checks = await Promise.all(
      hashes.map((hash, i) => verifyPassword(hash, `password-${i}`, { logN: 10, r: 8, p: 1 })),
    );
    expect(checks.every((c) => c.valid)).toBe(true);
  });
});
