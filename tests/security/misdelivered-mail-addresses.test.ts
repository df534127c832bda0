import { describe, expect, it } from "vitest";
import { signUpUser, TestBrowser } from "#test/browser.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";
import { expectCatalogueError, PASSWORD, snapshotDatabase } from "./helpers.ts";

/** docs/security.mds asserted here are named in a comment beside each test; the map of where
 * every row of the set is asserted is at the top of injection-and-input-limits.test.ts. */

const open = useFreshTestAuth();

const signedUp = (t: TestAuth, email: string, password = PASSWORD) => signUpUser(t, { email, password });

describe("addresses that would misdeliver mail are refused on the mailing endpoints", () => {
  it.each([
    ["B6", "a quoted local part hiding an address", '"attacker@evil.com"@victim.com'],
    ["B6", "a quoted local part with a space", '"x@evil.com x"@victim.com'],
    ["B6", "a comment holding an address", "a@victim.com(evil@x.io)"],
    ["B7", "a comma-separated list", "a@victim.com,attacker@x.io"],
    ["B7", "a semicolon-separated list", "a@victim.com;attacker@x.io"],
  ])(
    "%s: %s is refused with 400 INVALID_EMAIL by request-password-reset and send-verification-email; no mail, no token",
    async (_row, _name, email) => {
      const t = await open();
      await signedUp(t, "a@victim.com");
      t.outbox.clear();
      const before = await snapshotDatabase(t.db);
      for (const path of ["/request-password-reset", "/forget-password", "/send-verification-email"]) {
        const res = await new TestBrowser(t.auth).post(path, { email });
        expectCatalogueError(res, 400, "INVALID_EMAIL", "Invalid email");
      }
      expect(t.outbox.messages()).toEqual([]);
      expect(await t.db.collection("verifications").countDocuments()).toBe(0);
      expect(await snapshotDatabase(t.db)).toBe(before);
    },
  );
});
