import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { type Fixture, useFixtures } from "#test/organization.ts";
import { makeScimToken, scim, scimErrorBody } from "#test/scim.ts";

/** /scim/v2/Users: create, get, list, replace, patch, delete, and deprovisioning's effects. */
const fixture = useFixtures();
const LOCATION = "http://localhost:3000/api/auth/scim/v2";
const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";

const ada = {
  schemas: [USER_SCHEMA],
  userName: "Ada@Acme.test",
  externalId: "00u-ada",
  name: { givenName: "Ada", familyName: "Lovelace" },
  displayName: "Ada Lovelace",
  emails: [{ value: "ada@acme.test" }],
  active: true,
};

async function setUp(): Promise<{ f: Fixture; token: string; tokenId: string }> {
  const f = await fixture();
  const token = await makeScimToken(f);
  const row = await f.t.db.collection("scimTokens").findOne({ organizationId: new ObjectId(f.A) });
  return { f, token, tokenId: row!._id.toHexString() };
}

const usersRow = (f: Fixture, email: string) => f.t.db.collection("users").findOne({ email });
const memberRow = (f: Fixture, org: string, userId: ObjectId) =>
  f.t.db.collection("members").findOne({ organizationId: new ObjectId(org), userId });

describe("creating a user", () => {
  it("creates the account and its membership, answers 201 with the resource and audits as the token", async () => {
    const { f, token, tokenId } = await setUp();
    const res = await scim(f, token, "POST", "/Users", ada);
    expect(res.status).toBe(201);
    const user = await usersRow(f, "ada@acme.test");
    const id = user!._id.toHexString();
    const link = await f.t.db.collection("scimUsers").findOne({ userId: user!._id });
    expect(res.headers.get("location")).toBe(`${LOCATION}/Users/${id}`);
    expect(res.body).toEqual({
      schemas: [USER_SCHEMA],
      id,
      externalId: "00u-ada",
      userName: "Ada@Acme.test",
      name: { formatted: "Ada Lovelace", givenName: "Ada", familyName: "Lovelace" },
      displayName: "Ada Lovelace",
      emails: [{ value: "ada@acme.test" }],
      active: true,
      meta: {
        resourceType: "User",
        created: link!.createdAt.toISOString(),
        lastModified: link!.updatedAt.toISOString(),
        location: `${LOCATION}/Users/${id}`,
        version: res.headers.get("etag"),
      },
    });
    // The domain is not proven by this organization: the address stays unverified.
    expect(user).toMatchObject({ name: "Ada Lovelace", emailVerified: false });
    expect(await memberRow(f, f.A, user!._id)).toMatchObject({ role: "member" });
    expect(link).toMatchObject({ organizationId: new ObjectId(f.A), createdByDirectory: true, active: true });
    const audit = await f.t.db
      .collection("auditEvents")
      .find({ subjectId: user!._id })
      .sort({ _id: 1 })
      .toArray();
    expect(audit.map((row) => [row.action, row.actor, row.actorId])).toEqual([
      ["user.create", `scim:${tokenId}`, null],
      ["organization.add-member", `scim:${tokenId}`, null],
    ]);
  });

  it("an account that exists joins; a member already in the organization is 409 uniqueness", async () => {
    const { f, token } = await setUp();
    const joined = await scim(f, token, "POST", "/Users", { userName: f.P.email });
    expect(joined.status).toBe(201);
    expect(joined.body.id).toBe(f.P.userId);
    expect(await memberRow(f, f.A, new ObjectId(f.P.userId))).not.toBeNull();
    const again = await scim(f, token, "POST", "/Users", { userName: f.P.email });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(
      scimErrorBody(409, `User ${f.P.email} already exists in this organization`, "uniqueness"),
    );
    const member = await scim(f, token, "POST", "/Users", { userName: f.M.email });
    expect(member.status).toBe(409);
  });

  it.each([
    [
      "no userName",
      { displayName: "x" },
      "Invalid userName: Invalid input: expected string, received undefined",
    ],
    [
      "a userName that is no address, with no emails",
      { userName: "not-an-address" },
      "The user needs an email address: userName is not one and emails lists none",
    ],
    [
      "a userName that is no address, with emails that are none",
      { userName: "not-an-address", emails: [{ value: "nope" }] },
      "Invalid emails.0.value: Invalid email address",
    ],
    ["active as a number", { userName: "b@acme.test", active: 1 }, "Invalid active: Invalid input"],
  ])("refuses %s with 400 invalidValue and writes nothing", async (_, body, detail) => {
    const { f, token } = await setUp();
    const before = await f.t.db.collection("users").countDocuments();
    const res = await scim(f, token, "POST", "/Users", body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(scimErrorBody(400, detail, "invalidValue"));
    expect(await f.t.db.collection("users").countDocuments()).toBe(before);
    expect(await f.t.db.collection("scimUsers").countDocuments()).toBe(0);
  });
});

describe("userName (RFC 7643 §4.1.1: any string, unique in the organization, any case)", () => {
  it("keeps a userName that is no address as sent; the address comes from the primary email", async () => {
    const { f, token } = await setUp();
    const res = await scim(f, token, "POST", "/Users", {
      userName: "A.Lovelace",
      emails: [
        { value: "ada.home@example.test", type: "home" },
        { value: "Ada.Work@acme.test", type: "work", primary: true },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      userName: "A.Lovelace",
      emails: [{ value: "ada.work@acme.test" }],
    });
    expect(await usersRow(f, "ada.work@acme.test")).not.toBeNull();
    expect(
      await f.t.db.collection("scimUsers").findOne({ userId: new ObjectId(res.body.id as string) }),
    ).toMatchObject({
      userName: "A.Lovelace",
      userNameKey: "a.lovelace",
    });
    const found = await scim<{ totalResults: number; Resources: { id: string }[] }>(
      f,
      token,
      "GET",
      `/Users?filter=${encodeURIComponent('userName eq "a.LOVELACE"')}`,
    );
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0]!.id).toBe(res.body.id);
    expect((await scim(f, token, "GET", `/Users/${res.body.id}`)).body).toEqual(res.body);
  });

  it("without a primary, the first email is the address", async () => {
    const { f, token } = await setUp();
    const res = await scim(f, token, "POST", "/Users", {
      userName: "bob",
      emails: [{ value: "bob@acme.test" }, { value: "robert@acme.test" }],
    });
    expect(res.status).toBe(201);
    expect(await usersRow(f, "bob@acme.test")).not.toBeNull();
  });

  it("a userName taken in any case is 409 uniqueness, on create and on rename, and changes nothing", async () => {
    const { f, token } = await setUp();
    await scim(f, token, "POST", "/Users", { userName: "A.Lovelace", emails: [{ value: "ada@acme.test" }] });
    const again = await scim(f, token, "POST", "/Users", {
      userName: "a.lovelace",
      emails: [{ value: "other@acme.test" }],
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(
      scimErrorBody(409, "User a.lovelace already exists in this organization", "uniqueness"),
    );
    expect(await usersRow(f, "other@acme.test")).toBeNull();
    const bob = await scim(f, token, "POST", "/Users", {
      userName: "bob",
      emails: [{ value: "bob@acme.test" }],
    });
    const rename = await scim(f, token, "PATCH", `/Users/${bob.body.id}`, {
      Operations: [{ op: "replace", path: "userName", value: "A.LOVELACE" }],
    });
    expect(rename.status).toBe(409);
    expect(rename.body).toEqual(
      scimErrorBody(409, "User A.LOVELACE already exists in this organization", "uniqueness"),
    );
    expect((await scim(f, token, "GET", `/Users/${bob.body.id}`)).body.userName).toBe("bob");
    // The same userName in another organization is another directory's: allowed.
    const other = await makeScimToken(f, "B");
    const elsewhere = await scim(f, other, "POST", "/Users", {
      userName: "A.Lovelace",
      emails: [{ value: "ada@acme.test" }],
    });
    expect(elsewhere.status).toBe(201);
  });
});

describe("reading users", () => {
  it("a token reads its own organization's users only", async () => {
    const { f, token } = await setUp();
    const created = await scim(f, token, "POST", "/Users", ada);
    const other = await makeScimToken(f, "B");
    const res = await scim(f, other, "GET", `/Users/${created.body.id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(scimErrorBody(404, `User ${created.body.id} not found`));
    const list = await scim(f, other, "GET", "/Users");
    expect(list.body).toMatchObject({ totalResults: 0, Resources: [] });
    expect((await scim(f, token, "GET", `/Users/${created.body.id}`)).body).toEqual(created.body);
  });

  it("lists with a filter, startIndex and count", async () => {
    const { f, token } = await setUp();
    for (const name of ["ada", "bob", "cy"])
      await scim(f, token, "POST", "/Users", { userName: `${name}@acme.test` });
    const all = await scim<{ totalResults: number; Resources: { userName: string }[] }>(
      f,
      token,
      "GET",
      "/Users?startIndex=2&count=1",
    );
    expect(all.body).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
    const filter = encodeURIComponent('userName eq "BOB@acme.test" and active eq true');
    const one = await scim<{ totalResults: number; Resources: { userName: string }[] }>(
      f,
      token,
      "GET",
      `/Users?filter=${filter}`,
    );
    expect(one.body.totalResults).toBe(1);
    expect(one.body.Resources.map((r) => r.userName)).toEqual(["bob@acme.test"]);
    const bad = await scim(f, token, "GET", `/Users?filter=${encodeURIComponent('password eq "x"')}`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(
      scimErrorBody(400, "Unknown or unfilterable attribute 'password'", "invalidFilter"),
    );
  });
});

describe("deprovisioning", () => {
  it('Entra\'s PATCH Replace active "False" removes the membership at once; other organizations are untouched', async () => {
    const { f, token, tokenId } = await setUp();
    const created = await scim(f, token, "POST", "/Users", { userName: f.Q.email });
    const userId = new ObjectId(f.Q.userId);
    await f.Q.browser.post("/organization/set-active", { organizationId: f.A });
    const res = await scim(f, token, "PATCH", `/Users/${created.body.id}`, {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [{ op: "Replace", path: "active", value: "False" }],
    });
    expect(res.status).toBe(200);
    expect(res.body.active).toBe(false);
    expect(await memberRow(f, f.A, userId)).toBeNull();
    expect(await memberRow(f, f.B, userId)).not.toBeNull();
    const sessions = await f.t.db.collection("sessions").find({ userId }).toArray();
    expect(sessions.map((s) => s.activeOrganizationId ?? null)).not.toContain(f.A);
    const denied = await f.Q.browser.get("/organization/get-full-organization?organizationId=" + f.A);
    expect(denied.status).toBe(403);
    const audit = await f.t.db
      .collection("auditEvents")
      .findOne({ action: "organization.remove-member", subjectId: userId });
    expect(audit).toMatchObject({ actor: `scim:${tokenId}`, details: { organizationId: f.A } });
    // Okta's PUT with active true brings the membership back.
    const back = await scim(f, token, "PUT", `/Users/${created.body.id}`, {
      userName: f.Q.email,
      active: true,
    });
    expect(back.body.active).toBe(true);
    expect(await memberRow(f, f.A, userId)).not.toBeNull();
  });

  it("DELETE of an account the directory created deletes it; of a joined account removes only the membership", async () => {
    const { f, token } = await setUp();
    const made = await scim(f, token, "POST", "/Users", ada);
    const joined = await scim(f, token, "POST", "/Users", { userName: f.Q.email });
    const del = await scim(f, token, "DELETE", `/Users/${made.body.id}`);
    expect(del.status).toBe(204);
    expect(await usersRow(f, "ada@acme.test")).toBeNull();
    expect((await scim(f, token, "GET", `/Users/${made.body.id}`)).status).toBe(404);
    expect((await scim(f, token, "DELETE", `/Users/${joined.body.id}`)).status).toBe(204);
    expect(await usersRow(f, f.Q.email)).not.toBeNull();
    expect(await memberRow(f, f.A, new ObjectId(f.Q.userId))).toBeNull();
    expect(await memberRow(f, f.B, new ObjectId(f.Q.userId))).not.toBeNull();
  });
});

describe("patching", () => {
  it("applies paths with filters, pathless objects and removes", async () => {
    const { f, token } = await setUp();
    const made = await scim(f, token, "POST", "/Users", ada);
    const res = await scim(f, token, "PATCH", `/Users/${made.body.id}`, {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [
        { op: "replace", path: 'emails[type eq "work"].value', value: "ada.l@acme.test" },
        { op: "Add", value: { "name.givenName": "Augusta", displayName: "Augusta Ada" } },
        { op: "remove", path: "externalId" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      userName: "Ada@Acme.test",
      emails: [{ value: "ada.l@acme.test" }],
      displayName: "Augusta Ada",
      // formatted was never sent: it joins the given and family names.
      name: { formatted: "Augusta Lovelace", givenName: "Augusta", familyName: "Lovelace" },
    });
    expect(res.body.externalId).toBeUndefined();
    const bad = await scim(f, token, "PATCH", `/Users/${made.body.id}`, {
      Operations: [{ op: "replace", path: "roles", value: "admin" }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(scimErrorBody(400, "Unknown or read-only attribute 'roles'", "invalidPath"));
  });
});

describe("unassigned attributes, searching and attribute selection", () => {
  it("a removed name is gone; a removed active is unassigned and read as active", async () => {
    const { f, token } = await setUp();
    const made = await scim(f, token, "POST", "/Users", { ...ada, active: false });
    const userId = new ObjectId(made.body.id as string);
    expect(await memberRow(f, f.A, userId)).toBeNull();
    const res = await scim(f, token, "PATCH", `/Users/${made.body.id}`, {
      Operations: [
        { op: "remove", path: "name" },
        { op: "remove", path: "active" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBeUndefined();
    expect(res.body.active).toBeUndefined();
    expect(await memberRow(f, f.A, userId)).not.toBeNull();
    const found = await scim<{ totalResults: number }>(
      f,
      token,
      "GET",
      `/Users?filter=${encodeURIComponent("active eq true")}`,
    );
    expect(found.body.totalResults).toBe(1);
  });

  it("POST /Users/.search lists as GET does; /.search across types is 501; attributes select", async () => {
    const { f, token } = await setUp();
    await scim(f, token, "POST", "/Users", ada);
    await scim(f, token, "POST", "/Users", { userName: "bob@acme.test" });
    const search = await scim<{ totalResults: number; Resources: Record<string, unknown>[] }>(
      f,
      token,
      "POST",
      "/Users/.search",
      {
        schemas: ["urn:ietf:params:scim:api:messages:2.0:SearchRequest"],
        filter: 'userName sw "bob"',
        attributes: ["userName"],
      },
    );
    expect(search.status).toBe(200);
    expect(search.body.totalResults).toBe(1);
    expect(Object.keys(search.body.Resources[0]!).sort()).toEqual(["id", "meta", "schemas", "userName"]);
    const excluded = await scim<{ Resources: Record<string, unknown>[] }>(
      f,
      token,
      "GET",
      "/Users?excludedAttributes=emails,name",
    );
    expect(excluded.body.Resources.every((r) => r.emails === undefined && r.name === undefined)).toBe(true);
    const everywhere = await scim(f, token, "POST", "/.search", { filter: 'userName eq "x"' });
    expect(everywhere.status).toBe(501);
    expect(everywhere.body).toEqual(scimErrorBody(501, "Search across resource types is not supported"));
  });
});
