import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { filterQuery, scimServerForFile } from "#test/scim.ts";

/**
 * The requests Okta sends, in the order and shape of Okta's published SCIM 2.0 provisioning guide,
 * replayed against the live standalone server over HTTP: lookup with startIndex/count, create
 * (with the password and groups Okta sends, which Tessera does not take), PUT for profile updates,
 * pathless PATCH replace for deactivation, group push with full-list replace and filtered removal.
 */
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const server = scimServerForFile();
const q = filterQuery;

describe("Okta's provisioning sequence", () => {
  it("creates, updates, pushes groups, deactivates, reactivates and deletes as Okta does", async () => {
    const db = server.live.db;
    const lookup = await server.send(
      "GET",
      `/Users?${q('userName eq "test.user@okta.local"')}&startIndex=1&count=100`,
    );
    expect(lookup.body).toMatchObject({ totalResults: 0, Resources: [] });
    const okta = {
      schemas: [USER],
      userName: "test.user@okta.local",
      name: { givenName: "Test", familyName: "User" },
      emails: [{ primary: true, value: "test.user@okta.local", type: "work" }],
      displayName: "Test User",
      locale: "en-US",
      externalId: "00ujl29u0le5T6Aj10h7",
      groups: [],
      password: "1mz050nq",
      active: true,
    };
    const created = await server.send<{ id: string }>("POST", "/Users", okta);
    expect(created.status).toBe(201);
    const id = created.body.id;
    const userId = new ObjectId(id);
    const account = await db.collection("users").findOne({ _id: userId });
    expect(account).toMatchObject({ email: "test.user@okta.local", name: "Test User" });
    // The password Okta sends is not taken: the directory's users sign in through the organization's SSO.
    expect(await db.collection("accounts").countDocuments({ userId, providerId: "credential" })).toBe(0);
    expect((await server.send("GET", `/Users/${id}`)).body).toMatchObject({
      userName: "test.user@okta.local",
    });

    const put = await server.send<Record<string, unknown>>("PUT", `/Users/${id}`, {
      ...okta,
      id,
      name: { givenName: "Another", familyName: "User" },
      displayName: "Another User",
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ displayName: "Another User", name: { givenName: "Another" } });

    // Group push: create, look up by name, rename, add, remove by filter, full replace.
    const other = await server.send<{ id: string }>("POST", "/Users", {
      userName: "second@okta.local",
      active: true,
    });
    const group = await server.send<{ id: string }>("POST", "/Groups", {
      schemas: [GROUP],
      displayName: "Test SCIMv2",
      members: [],
    });
    expect(group.status).toBe(201);
    const teamId = new ObjectId(group.body.id);
    const found = await server.send<{ totalResults: number }>(
      "GET",
      `/Groups?${q('displayName eq "Test SCIMv2"')}&startIndex=1&count=100`,
    );
    expect(found.body.totalResults).toBe(1);
    const renamed = await server.send("PATCH", `/Groups/${group.body.id}`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", value: { id: group.body.id, displayName: "Test SCIMv2 renamed" } }],
    });
    expect(renamed.status).toBe(200);
    expect(await db.collection("teams").findOne({ _id: teamId })).toMatchObject({
      name: "Test SCIMv2 renamed",
    });
    const members = async () =>
      (await db.collection("teamMembers").find({ teamId }).toArray())
        .map((row) => row.userId.toHexString())
        .sort();
    await server.send("PATCH", `/Groups/${group.body.id}`, {
      schemas: [PATCH],
      Operations: [
        {
          op: "add",
          path: "members",
          value: [{ value: id, display: "test.user@okta.local" }, { value: other.body.id }],
        },
      ],
    });
    expect(await members()).toEqual([id, other.body.id].sort());
    await server.send("PATCH", `/Groups/${group.body.id}`, {
      schemas: [PATCH],
      Operations: [{ op: "remove", path: `members[value eq "${other.body.id}"]` }],
    });
    expect(await members()).toEqual([id]);
    const replaced = await server.send("PUT", `/Groups/${group.body.id}`, {
      schemas: [GROUP],
      id: group.body.id,
      displayName: "Test SCIMv2 renamed",
      members: [{ value: other.body.id }],
    });
    expect(replaced.status).toBe(200);
    expect(await members()).toEqual([other.body.id]);

    // Deactivation (PATCH without a path), then reactivation with PUT.
    const member = () =>
      db.collection("members").findOne({ organizationId: new ObjectId(server.organizationId), userId });
    const off = await server.send<{ active: boolean }>("PATCH", `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", value: { active: false } }],
    });
    expect(off.body.active).toBe(false);
    expect(await member()).toBeNull();
    const on = await server.send<{ active: boolean }>("PUT", `/Users/${id}`, { ...okta, active: true });
    expect(on.body.active).toBe(true);
    expect(await member()).not.toBeNull();

    expect((await server.send("DELETE", `/Groups/${group.body.id}`)).status).toBe(204);
    expect(await db.collection("teamMembers").countDocuments({ teamId })).toBe(0);
    expect((await server.send("DELETE", `/Users/${id}`)).status).toBe(204);
    expect(await db.collection("users").findOne({ _id: userId })).toBeNull();
    expect(await member()).toBeNull();
  });
});
