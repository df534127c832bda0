import { afterEach, describe, expect, it } from "vitest";
import { createFixture } from "#test/organization.ts";
import type { TestAuth } from "#test/test-auth.ts";
import { expectCatalogueError } from "./helpers.ts";

/** docs/security.mds asserted here are named in a comment beside each test; the map of where
 * every row of the set is asserted is at the top of injection-and-input-limits.test.ts. */

let t: TestAuth | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe("members cannot invite with roles they may not grant", () => {
  // matrix E17
  it("a member inviting with any role gets 403 INVITATION_CREATE_NOT_ALLOWED, an admin inviting an owner 403 INVITATION_ROLE_NOT_ALLOWED; nothing stored or mailed", async () => {
    const f = await createFixture();
    t = f.t;
    const invite = (by: typeof f.M, role: string) =>
      by.browser.post("/organization/invite-member", { organizationId: f.A, email: "n@example.com", role });
    for (const role of ["member", "admin", "owner"])
      expectCatalogueError(
        await invite(f.M, role),
        403,
        "INVITATION_CREATE_NOT_ALLOWED",
        "not allowed to invite users to this organization",
      );
    expectCatalogueError(
      await invite(f.D, "owner"),
      403,
      "INVITATION_ROLE_NOT_ALLOWED",
      "not allowed to invite a user with this role",
    );
    expect(await f.t.db.collection("invitations").countDocuments()).toBe(0);
    expect(f.t.outbox.latestTo("n@example.com")).toBeNull();
    // Control: the admin may invite at their own level or below.
    expect((await invite(f.D, "admin")).status).toBe(200);
    expect(await f.t.db.collection("invitations").countDocuments({ role: "admin" })).toBe(1);
  });
});
