import { createHash } from "node:crypto";
import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { errorBody, useFixtures } from "#test/organization.ts";

/** SCIM connection tokens: /scim/generate-token, /scim/list-provider-connections, /scim/delete-provider-connection. */
const fixture = useFixtures();

const hashOf = (token: string) => createHash("sha256").update(token).digest("base64url");

function storedTokens(f: Awaited<ReturnType<typeof fixture>>) {
  return f.t.db.collection("scimTokens").find({}).sort({ createdAt: 1, _id: 1 }).toArray();
}

describe("generating a SCIM token", () => {
  it("shows the token once, stores only its SHA-256 and audits the creation", async () => {
    const f = await fixture();
    const res = await f.O.browser.post<Record<string, string>>("/scim/generate-token", {
      providerId: "okta",
    });
    expect(res.status).toBe(200);
    const { scimToken, id, createdAt } = res.body;
    expect(scimToken).toMatch(/^scim_[A-Za-z0-9]{43}$/);
    expect(res.body).toEqual({ id, organizationId: f.A, providerId: "okta", createdAt, scimToken });
    const rows = await storedTokens(f);
    expect(rows).toEqual([
      {
        _id: new ObjectId(id),
        organizationId: new ObjectId(f.A),
        providerId: "okta",
        tokenHash: hashOf(scimToken!),
        createdBy: new ObjectId(f.O.userId),
        createdAt: new Date(createdAt!),
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(scimToken!.slice(5));
    const audit = await f.t.db
      .collection("auditEvents")
      .find({ action: "organization.scim-token-create" })
      .toArray();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorId: new ObjectId(f.O.userId),
      details: { organizationId: f.A, providerId: "okta", tokenId: id },
    });
  });

  it("an admin may; a member, an outsider and a member of another organization may not", async () => {
    const f = await fixture();
    expect((await f.D.browser.post("/scim/generate-token", {})).status).toBe(200);
    const member = await f.M.browser.post("/scim/generate-token", { organizationId: f.A });
    expect(member.status).toBe(403);
    expect(member.body).toEqual(
      errorBody("ORGANIZATION_UPDATE_NOT_ALLOWED", "not allowed to update or delete this organization"),
    );
    const outsider = await f.X.browser.post("/scim/generate-token", { organizationId: f.A });
    expect(outsider.status).toBe(403);
    expect(outsider.body).toEqual(
      errorBody("NOT_A_MEMBER_OF_ORGANIZATION", "You are not a member of this organization"),
    );
    const other = await f.P.browser.post("/scim/generate-token", { organizationId: f.A });
    expect(other.status).toBe(403);
    const rows = await storedTokens(f);
    expect(rows.map((row) => [String(row.organizationId), row.providerId])).toEqual([[f.A, "default"]]);
  });

  it("again for the same connection replaces the token: the old hash is gone", async () => {
    const f = await fixture();
    const first = await f.O.browser.post<{ scimToken: string }>("/scim/generate-token", {
      providerId: "entra",
    });
    const second = await f.O.browser.post<{ scimToken: string; id: string }>("/scim/generate-token", {
      providerId: "entra",
    });
    expect(second.body.scimToken).not.toBe(first.body.scimToken);
    const rows = await storedTokens(f);
    expect(rows.map((row) => row.tokenHash)).toEqual([hashOf(second.body.scimToken)]);
    const audit = await f.t.db
      .collection("auditEvents")
      .find({ action: "organization.scim-token-create" })
      .toArray();
    // The second event names the token it replaced.
    expect(audit.map((row) => row.details.replaced ?? null)).toEqual([null, audit[0]!.details.tokenId]);
    expect(String(rows[0]!._id)).toBe(second.body.id);
  });

  it.each([
    ["a colon", "okta:acme"],
    ["a slash", "a/b"],
    ["an operator", { $ne: null }],
    ["too long", "x".repeat(65)],
  ])("refuses a providerId with %s and stores nothing", async (_, providerId) => {
    const f = await fixture();
    const res = await f.O.browser.post<{ code: string }>("/scim/generate-token", { providerId });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("VALIDATION_ERROR");
    expect(await storedTokens(f)).toEqual([]);
  });
});

describe("listing and revoking SCIM connections", () => {
  it("lists the organization's connections without their tokens", async () => {
    const f = await fixture();
    const okta = await f.O.browser.post<Record<string, string>>("/scim/generate-token", {
      providerId: "okta",
    });
    await f.P.browser.post("/scim/generate-token", { providerId: "other-org" });
    const res = await f.D.browser.get<unknown>("/scim/list-provider-connections");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      providers: [
        { id: okta.body.id, organizationId: f.A, providerId: "okta", createdAt: okta.body.createdAt },
      ],
    });
    expect((await f.M.browser.get("/scim/list-provider-connections")).status).toBe(403);
  });

  it("revokes a connection: the row is gone, audited; an unknown one is 404 and changes nothing", async () => {
    const f = await fixture();
    const made = await f.O.browser.post<{ id: string }>("/scim/generate-token", { providerId: "okta" });
    await f.P.browser.post("/scim/generate-token", { providerId: "okta" });
    // Org B's owner cannot revoke org A's connection by naming it.
    const cross = await f.P.browser.post("/scim/delete-provider-connection", {
      organizationId: f.A,
      providerId: "okta",
    });
    expect(cross.status).toBe(403);
    const res = await f.O.browser.post("/scim/delete-provider-connection", { providerId: "okta" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const rows = await storedTokens(f);
    expect(rows.map((row) => String(row.organizationId))).toEqual([f.B]);
    const audit = await f.t.db
      .collection("auditEvents")
      .find({ action: "organization.scim-token-revoke" })
      .toArray();
    expect(audit).toMatchObject([
      { details: { organizationId: f.A, providerId: "okta", tokenId: made.body.id } },
    ]);
    const again = await f.O.browser.post("/scim/delete-provider-connection", { providerId: "okta" });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(errorBody("SCIM_CONNECTION_NOT_FOUND", "SCIM connection not found"));
    expect((await storedTokens(f)).length).toBe(1);
  });
});
