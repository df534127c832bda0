import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { filterQuery, scimServerForFile } from "#test/scim.ts";

/**
 * The requests Microsoft Entra ID sends, in the order and shape of Microsoft's published SCIM
 * provisioning guide (its request/response examples), replayed against the live standalone server
 * over HTTP: find by userName, create, update with capitalised ops, "False" as a string, groups with
 * addMember/removeMember, members[value eq "…"], deactivate, delete.
 */
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const server = scimServerForFile();
const q = filterQuery;

describe("Entra ID's provisioning sequence", () => {
  it("creates, finds, updates, groups, deactivates and deletes a user as Entra does", async () => {
    const db = server.live.db;
    const userName = "Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1";
    // Entra first asks whether the user exists.
    const none = await server.send("GET", `/Users?${q(`userName eq "${userName}"`)}`);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({
      schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });
    const created = await server.send<{ id: string; userName: string; active: boolean }>("POST", "/Users", {
      schemas: [
        "urn:ietf:params:scim:schemas:core:2.0:User",
        "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User",
      ],
      externalId: "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef",
      userName,
      active: true,
      emails: [{ primary: true, type: "work", value: "Test_User_fd0ea19b@testuser.com" }],
      meta: { resourceType: "User" },
      name: { formatted: "givenName familyName", familyName: "familyName", givenName: "givenName" },
      roles: [],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      userName,
      active: true,
      externalId: "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef",
    });
    const id = created.body.id;
    const account = await db.collection("users").findOne({ _id: new ObjectId(id) });
    expect(account).toMatchObject({ email: "test_user_fd0ea19b@testuser.com" });
    const member = () =>
      db
        .collection("members")
        .findOne({ organizationId: new ObjectId(server.organizationId), userId: new ObjectId(id) });
    expect(await member()).toMatchObject({ role: "member" });

    const found = await server.send<{ totalResults: number; Resources: { id: string }[] }>(
      "GET",
      `/Users?${q(`userName eq "${userName}"`)}`,
    );
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0]!.id).toBe(id);
    expect((await server.send("GET", `/Users/${id}`)).status).toBe(200);

    const updated = await server.send<Record<string, unknown>>("PATCH", `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [
        { op: "Replace", path: 'emails[type eq "work"].value', value: "updatedEmail@microsoft.com" },
        { op: "Replace", path: "name.familyName", value: "updatedFamilyName" },
      ],
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      emails: [{ value: "updatedemail@microsoft.com" }],
      name: { familyName: "updatedFamilyName", givenName: "givenName" },
    });
    expect(await db.collection("users").findOne({ _id: new ObjectId(id) })).toMatchObject({
      email: "updatedemail@microsoft.com",
    });

    // Groups: create, find by displayName without members, add and remove a member, rename.
    const group = await server.send<{ id: string; displayName: string }>("POST", "/Groups", {
      schemas: [
        "urn:ietf:params:scim:schemas:core:2.0:Group",
        "http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group",
      ],
      externalId: "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159",
      displayName: "displayName",
      meta: { resourceType: "Group" },
    });
    expect(group.status).toBe(201);
    const teamId = new ObjectId(group.body.id);
    const byName = await server.send<{ totalResults: number; Resources: Record<string, unknown>[] }>(
      "GET",
      `/Groups?excludedAttributes=members&${q('displayName eq "displayName"')}`,
    );
    expect(byName.body.totalResults).toBe(1);
    expect(byName.body.Resources[0]).not.toHaveProperty("members");
    const teamMembers = () => db.collection("teamMembers").find({ teamId }).toArray();
    const add = await server.send("PATCH", `/Groups/${group.body.id}`, {
      schemas: [PATCH],
      Operations: [
        { name: "addMember", op: "Add", path: "members", value: [{ displayName: "new member", value: id }] },
      ],
    });
    expect(add.status).toBe(200);
    expect((await teamMembers()).map((row) => row.userId.toHexString())).toEqual([id]);
    const remove = await server.send("PATCH", `/Groups/${group.body.id}`, {
      schemas: [PATCH],
      Operations: [
        {
          name: "removeMember",
          op: "Remove",
          path: "members",
          value: [{ displayName: "new member", value: id }],
        },
      ],
    });
    expect(remove.status).toBe(200);
    expect(await teamMembers()).toEqual([]);
    await server.send("PATCH", `/Groups/${group.body.id}`, {
      schemas: [PATCH],
      Operations: [{ op: "Add", path: "members", value: [{ value: id }] }],
    });
    const filtered = await server.send("PATCH", `/Groups/${group.body.id}`, {
      schemas: [PATCH],
      Operations: [{ op: "Remove", path: `members[value eq "${id}"]` }],
    });
    expect(filtered.status).toBe(200);
    expect(await teamMembers()).toEqual([]);
    const renamed = await server.send<{ displayName: string }>("PATCH", `/Groups/${group.body.id}`, {
      schemas: [PATCH],
      Operations: [{ op: "Replace", path: "displayName", value: "1879db59updatedDisplayName" }],
    });
    expect(renamed.body.displayName).toBe("1879db59updatedDisplayName");
    expect(await db.collection("teams").findOne({ _id: teamId })).toMatchObject({
      name: "1879db59updatedDisplayName",
    });

    // Deactivation: Entra sends "False" as a string with a capitalised op.
    await server.send("PATCH", `/Groups/${group.body.id}`, {
      schemas: [PATCH],
      Operations: [{ op: "Add", path: "members", value: [{ value: id }] }],
    });
    const disabled = await server.send<{ active: boolean }>("PATCH", `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: "Replace", path: "active", value: "False" }],
    });
    expect(disabled.status).toBe(200);
    expect(disabled.body.active).toBe(false);
    expect(await member()).toBeNull();
    expect(await teamMembers()).toEqual([]);

    expect((await server.send("DELETE", `/Groups/${group.body.id}`)).status).toBe(204);
    expect(await db.collection("teams").findOne({ _id: teamId })).toBeNull();
    expect((await server.send("DELETE", `/Users/${id}`)).status).toBe(204);
    expect(await db.collection("users").findOne({ _id: new ObjectId(id) })).toBeNull();
    expect((await server.send("GET", `/Users/${id}`)).status).toBe(404);
  });

  it("deactivating someone who already had an account takes the organization off their sessions", async () => {
    const db = server.live.db;
    const person = await server.signUp("grace@acme.test", "Grace");
    const created = await server.send<{ id: string }>("POST", "/Users", {
      userName: "grace@acme.test",
      externalId: "e-grace",
      active: true,
    });
    expect(created.body.id).toBe(person.userId);
    expect(
      (await person.post("/organization/set-active", { organizationId: server.organizationId })).status,
    ).toBe(200);
    const sessions = () =>
      db
        .collection("sessions")
        .find({ userId: new ObjectId(person.userId) })
        .toArray();
    expect((await sessions()).map((s) => String(s.activeOrganizationId))).toContain(server.organizationId);
    await server.send("PATCH", `/Users/${person.userId}`, {
      schemas: [PATCH],
      Operations: [{ op: "Replace", path: "active", value: "False" }],
    });
    expect((await sessions()).map((s) => s.activeOrganizationId ?? null)).toEqual([null]);
    expect(await db.collection("users").findOne({ _id: new ObjectId(person.userId) })).not.toBeNull();
  });
});
