import { describe, expect, it } from "vitest";
import { signUpUser } from "#test/browser.ts";
import { createOrganization, signIn as signInVerified } from "#test/organization.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";
import { PASSWORD } from "./helpers.ts";

/** docs/security.mds asserted here are named in a comment beside each test; the map of where
 * every row of the set is asserted is at the top of injection-and-input-limits.test.ts. */

const open = useFreshTestAuth();

const signedUp = (t: TestAuth, email: string, password = PASSWORD) => signUpUser(t, { email, password });

describe("invitations do not reveal which addresses are registered", () => {
  // matrix C5
  it("invite-member answers a registered and an unregistered address identically (status, fields, values); both stored and mailed", async () => {
    const t = await open();
    const owner = await signInVerified(t, "owner");
    const organizationId = await createOrganization(owner, "org-c5");
    await signedUp(t, "registered@example.com");
    const invite = (email: string) =>
      owner.browser.post<Record<string, unknown>>("/organization/invite-member", {
        organizationId,
        email,
        role: "member",
      });
    const known = await invite("registered@example.com");
    const unknown = await invite("unregistered@example.com");
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(known.status);
    // Only the fields that name the invitation itself may differ.
    const comparable = (body: Record<string, unknown>) => {
      const { id: _id, email: _email, expiresAt: _expiresAt, createdAt: _createdAt, ...rest } = body;
      return rest;
    };
    expect(Object.keys(unknown.body).sort()).toEqual(Object.keys(known.body).sort());
    expect(comparable(unknown.body)).toEqual(comparable(known.body));
    expect(known.headers.getSetCookie()).toEqual(unknown.headers.getSetCookie());
    const rows = await t.db
      .collection("invitations")
      .find({}, { sort: { email: 1 } })
      .toArray();
    expect(rows.map((row) => [row.email, row.status])).toEqual([
      ["registered@example.com", "pending"],
      ["unregistered@example.com", "pending"],
    ]);
    expect(t.outbox.latestTo("registered@example.com")?.kind).toBe("invitation");
    expect(t.outbox.latestTo("unregistered@example.com")?.kind).toBe("invitation");
  });
});
