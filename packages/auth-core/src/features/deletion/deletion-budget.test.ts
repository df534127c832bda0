import { afterEach, describe, expect, it } from "vitest";
import { TestBrowser } from "../../../../../tests/support/browser.ts";
import { createTestAuth, type TestAuth } from "../../../../../tests/support/test-auth.ts";
import { deleteLinkFrom, signUpUser } from "./deletion-test-helpers.ts";

/**
 * Database commands per deletion request (STYLE.md), named `command:collection`. Rate limiting is
 * off here so the count is deletion's own (the limiter's counter is measured by the session budget).
 */
let t: TestAuth;
afterEach(async () => {
  await t.close();
});

async function createMeteredAuth(sendDeleteAccountVerification: boolean) {
  t = await createTestAuth({ user: { deleteUser: { enabled: true, sendDeleteAccountVerification } } });
  return { auth: t.auth, outbox: t.outbox };
}

const count = (run: () => Promise<unknown>) => t.commands(run);

/** Sessions, user, accounts, tokens; second factor and its rows; API keys (a find, none to delete). */
const CASCADE = [
  "delete:sessions",
  "delete:users",
  "delete:accounts",
  "delete:verifications",
  "delete:twoFactors",
  "delete:verifications",
  "find:apiKeys",
];

describe("database commands per deletion request", () => {
  it("delete-user with a fresh session: 2 reads, then the 4-step cascade", async () => {
    const { auth } = await createMeteredAuth(false);
    const ada = new TestBrowser(auth);
    await signUpUser(ada, "ada@example.com");
    const commands = await count(() => ada.post("/delete-user", {}));
    expect(commands).toEqual(["find:sessions", "find:users", ...CASCADE]);
  });

  it("delete-user asking for the mail: 2 reads and 1 insert; the link: 2 reads, a find-then-delete consume, the cascade", async () => {
    const { auth, outbox } = await createMeteredAuth(true);
    const ada = new TestBrowser(auth);
    await signUpUser(ada, "ada@example.com");
    const request = await count(() => ada.post("/delete-user", {}));
    expect(request).toEqual(["find:sessions", "find:users", "insert:verifications"]);
    const link = deleteLinkFrom(outbox.latestTo("ada@example.com")?.text ?? "");
    const confirm = await count(() => ada.get(link.path));
    expect(confirm).toEqual([
      "find:sessions",
      "find:users",
      "find:verifications",
      "delete:verifications",
      ...CASCADE,
    ]);
  });
});
