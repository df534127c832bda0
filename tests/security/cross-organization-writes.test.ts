import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { type Fixture, useFixtures } from "#test/organization.ts";
import { expectCatalogueError } from "./helpers.ts";

/** docs/security.mds asserted here are named in a comment beside each test; the map of where
 * every row of the set is asserted is at the top of one-time-tokens.test.ts. */

describe("an admin of one organization cannot write to another", () => {
  const fixture = useFixtures();

  async function organizationB(f: Fixture) {
    const B = new ObjectId(f.B);
    return {
      organization: await f.t.db.collection("organizations").findOne({ _id: B }),
      members: await f.t.db.collection("members").find({ organizationId: B }).sort({ _id: 1 }).toArray(),
      invitations: await f.t.db.collection("invitations").find({ organizationId: B }).toArray(),
    };
  }

  // matrix I8
  it("D's organization/update {organizationId: B, data: {name, slug, metadata}} is 403; B unchanged", async () => {
    const f = await fixture();
    const before = await organizationB(f);
    const res = await f.D.browser.post("/organization/update", {
      organizationId: f.B,
      data: { name: "pwned", slug: "pwned", metadata: { owner: "D" } },
    });
    expectCatalogueError(
      res,
      403,
      "NOT_A_MEMBER_OF_ORGANIZATION",
      "You are not a member of this organization",
    );
    expect(await organizationB(f)).toEqual(before);
    expect(before.organization).toMatchObject({ name: "org-b", slug: "org-b" });
    expect(await f.t.db.collection("organizations").countDocuments({ slug: "pwned" })).toBe(0);
  });

  // matrix I11
  it("D's invite-member {organizationId: B} is 403; no invitation stored, nothing mailed", async () => {
    const f = await fixture();
    const before = await organizationB(f);
    const mails = f.t.outbox.messages().length;
    const res = await f.D.browser.post("/organization/invite-member", {
      organizationId: f.B,
      email: "spy@example.com",
      role: "member",
    });
    expectCatalogueError(
      res,
      403,
      "NOT_A_MEMBER_OF_ORGANIZATION",
      "You are not a member of this organization",
    );
    expect(await organizationB(f)).toEqual(before);
    expect(await f.t.db.collection("invitations").countDocuments({ email: "spy@example.com" })).toBe(0);
    expect(f.t.outbox.messages()).toHaveLength(mails);
  });
});
