import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { useFixtures } from "#test/organization.ts";
import { makeScimToken, scim, scimErrorBody } from "#test/scim.ts";

/** Resource versions (RFC 7644 §3.14): meta.version, the ETag header, If-Match and If-None-Match. */
const fixture = useFixtures({ organization: { teams: { enabled: true } } });

interface Resource {
  id: string;
  meta: { version: string };
}

describe("versions", () => {
  it("every answer carrying a user names its version; a change makes a new one", async () => {
    const f = await fixture();
    const token = await makeScimToken(f);
    const made = await scim<Resource>(f, token, "POST", "/Users", { userName: "ada@acme.test" });
    expect(made.body.meta.version).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/);
    expect(made.headers.get("etag")).toBe(made.body.meta.version);
    const read = await scim<Resource>(f, token, "GET", `/Users/${made.body.id}`);
    expect(read.headers.get("etag")).toBe(made.body.meta.version);
    const list = await scim<{ Resources: Resource[] }>(f, token, "GET", "/Users");
    expect(list.body.Resources[0]!.meta.version).toBe(made.body.meta.version);
    const patched = await scim<Resource>(f, token, "PATCH", `/Users/${made.body.id}`, {
      Operations: [{ op: "replace", path: "displayName", value: "Ada" }],
    });
    expect(patched.headers.get("etag")).toBe(patched.body.meta.version);
    expect(patched.body.meta.version).not.toBe(made.body.meta.version);
    // A change the app makes (the user's name) is a new version too: nothing is cached.
    await f.t.db
      .collection("users")
      .updateOne({ _id: new ObjectId(made.body.id) }, { $set: { name: "Augusta" } });
    const after = await scim<Resource>(f, token, "GET", `/Users/${made.body.id}`);
    expect(after.body.meta.version).not.toBe(patched.body.meta.version);
  });

  it("a stale If-Match is 412 and changes nothing; the current one or * passes", async () => {
    const f = await fixture();
    const token = await makeScimToken(f);
    const made = await scim<Resource>(f, token, "POST", "/Users", { userName: "ada@acme.test" });
    const stale = made.body.meta.version;
    await scim(f, token, "PATCH", `/Users/${made.body.id}`, {
      Operations: [{ op: "replace", path: "displayName", value: "Ada" }],
    });
    const current = await scim<Resource & { displayName: string }>(f, token, "GET", `/Users/${made.body.id}`);
    const patch = { Operations: [{ op: "replace", path: "displayName", value: "Late" }] };
    for (const method of ["PATCH", "PUT", "DELETE"] as const) {
      const body =
        method === "PUT"
          ? { userName: "ada@acme.test", displayName: "Late" }
          : method === "PATCH"
            ? patch
            : undefined;
      const refused = await scim(f, token, method, `/Users/${made.body.id}`, body, { "if-match": stale });
      expect(refused.status).toBe(412);
      expect(refused.body).toEqual(
        scimErrorBody(412, "The resource has changed since that version: read it again"),
      );
    }
    expect((await scim(f, token, "GET", `/Users/${made.body.id}`)).body).toEqual(current.body);
    const passed = await scim<{ displayName: string }>(f, token, "PATCH", `/Users/${made.body.id}`, patch, {
      "if-match": current.body.meta.version,
    });
    expect(passed.status).toBe(200);
    expect(passed.body.displayName).toBe("Late");
    expect(
      (await scim(f, token, "DELETE", `/Users/${made.body.id}`, undefined, { "if-match": "*" })).status,
    ).toBe(204);
  });

  it("groups: a member change is a new version; a stale If-Match is 412; If-None-Match answers 304", async () => {
    const f = await fixture();
    const token = await makeScimToken(f);
    await f.O.browser.post("/organization/create-team", { organizationId: f.A, name: "Everyone" });
    const made = await scim<Resource>(f, token, "POST", "/Groups", { displayName: "Ops" });
    expect(made.headers.get("etag")).toBe(made.body.meta.version);
    const unchanged = await scim(f, token, "GET", `/Groups/${made.body.id}`, undefined, {
      "if-none-match": made.body.meta.version,
    });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get("etag")).toBe(made.body.meta.version);
    const added = await scim<Resource>(f, token, "PATCH", `/Groups/${made.body.id}`, {
      Operations: [{ op: "add", path: "members", value: [{ value: f.M.userId }] }],
    });
    expect(added.body.meta.version).not.toBe(made.body.meta.version);
    const refused = await scim(
      f,
      token,
      "PATCH",
      `/Groups/${made.body.id}`,
      {
        Operations: [{ op: "remove", path: "members" }],
      },
      { "if-match": made.body.meta.version },
    );
    expect(refused.status).toBe(412);
    expect(
      await f.t.db.collection("teamMembers").countDocuments({ teamId: new ObjectId(made.body.id) }),
    ).toBe(1);
  });
});
