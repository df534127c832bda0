import { describe, expect, it } from "vitest";
import { useFixtures } from "#test/organization.ts";
import { makeScimToken, scim, scimErrorBody } from "#test/scim.ts";

/** /scim/v2/ServiceProviderConfig, /Schemas, /ResourceTypes, and how every SCIM request authenticates. */
const fixture = useFixtures();
const LOCATION = "http://localhost:3000/api/auth/scim/v2";

describe("SCIM discovery", () => {
  it("answers the service provider's configuration as application/scim+json", async () => {
    const f = await fixture();
    const token = await makeScimToken(f);
    const res = await scim(f, token, "GET", "/ServiceProviderConfig");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/scim+json; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toEqual({
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: 100 },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: true },
      authenticationSchemes: [
        {
          type: "oauthbearertoken",
          name: "OAuth Bearer Token",
          description: "The organization's SCIM token in the Authorization header.",
          specUri: "https://www.rfc-editor.org/info/rfc6750",
          primary: true,
        },
      ],
      meta: { resourceType: "ServiceProviderConfig", location: `${LOCATION}/ServiceProviderConfig` },
    });
  });

  it("lists the User schema and resource type, and answers each by id", async () => {
    const f = await fixture();
    const token = await makeScimToken(f);
    const schemas = await scim<{ Resources: { id: string; attributes: { name: string }[] }[] }>(
      f,
      token,
      "GET",
      "/Schemas",
    );
    expect(schemas.status).toBe(200);
    expect(schemas.body).toMatchObject({
      schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"],
      totalResults: 1,
      startIndex: 1,
      itemsPerPage: 1,
    });
    const [user] = schemas.body.Resources;
    expect(user!.id).toBe("urn:ietf:params:scim:schemas:core:2.0:User");
    expect(user!.attributes.map((a) => a.name)).toEqual([
      "userName",
      "name",
      "displayName",
      "emails",
      "active",
      "externalId",
    ]);
    const one = await scim(f, token, "GET", "/Schemas/urn:ietf:params:scim:schemas:core:2.0:User");
    expect(one.body).toEqual(user);
    const types = await scim<{ Resources: unknown[] }>(f, token, "GET", "/ResourceTypes");
    expect(types.body.Resources).toEqual([
      {
        schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
        id: "User",
        name: "User",
        endpoint: "/Users",
        description: "User Account",
        schema: "urn:ietf:params:scim:schemas:core:2.0:User",
        schemaExtensions: [],
        meta: { resourceType: "ResourceType", location: `${LOCATION}/ResourceTypes/User` },
      },
    ]);
    expect((await scim(f, token, "GET", "/ResourceTypes/User")).body).toEqual(types.body.Resources[0]);
    const missing = await scim(f, token, "GET", "/ResourceTypes/Group");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(scimErrorBody(404, "Resource type Group not found"));
    const unknown = await scim(f, token, "GET", "/Widgets");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(scimErrorBody(404, "Resource not found"));
    const post = await scim(f, token, "POST", "/ServiceProviderConfig", {});
    expect(post.status).toBe(405);
    expect(post.body).toEqual(scimErrorBody(405, "POST is not supported on /ServiceProviderConfig"));
  });

  it("with teams on, lists Group with Tessera's team extension, and both schemas", async () => {
    const f = await fixture({ organization: { teams: { enabled: true } } });
    const token = await makeScimToken(f);
    const extension = "urn:tessera:params:scim:schemas:extension:team:2.0:Group";
    const group = await scim(f, token, "GET", "/ResourceTypes/Group");
    expect(group.body).toEqual({
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
      id: "Group",
      name: "Group",
      endpoint: "/Groups",
      description: "Group (a team)",
      schema: "urn:ietf:params:scim:schemas:core:2.0:Group",
      schemaExtensions: [{ schema: extension, required: false }],
      meta: { resourceType: "ResourceType", location: `${LOCATION}/ResourceTypes/Group` },
    });
    const schemas = await scim<{ totalResults: number; Resources: { id: string }[] }>(
      f,
      token,
      "GET",
      "/Schemas",
    );
    expect(schemas.body.Resources.map((schema) => schema.id)).toEqual([
      "urn:ietf:params:scim:schemas:core:2.0:User",
      "urn:ietf:params:scim:schemas:core:2.0:Group",
      extension,
    ]);
    const one = await scim<{ attributes: { name: string }[] }>(f, token, "GET", `/Schemas/${extension}`);
    expect(one.body.attributes.map((attribute) => attribute.name)).toEqual(["role"]);
  });
});

describe("SCIM authentication", () => {
  it.each([
    ["no Authorization header", null, {}],
    ["an unknown token", "scim_unknown", {}],
    ["a Basic credential", null, { authorization: "Basic c2NpbTpzY2lt" }],
    ["an empty bearer", null, { authorization: "Bearer " }],
  ] as const)("refuses %s with 401 and the SCIM error schema", async (_, token, headers) => {
    const f = await fixture();
    await makeScimToken(f);
    const res = await scim(f, token, "GET", "/ServiceProviderConfig", undefined, headers);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="SCIM"');
    expect(res.body).toEqual(scimErrorBody(401, "A valid SCIM bearer token is required"));
  });

  it("never accepts a browser session: the owner's cookies alone are refused", async () => {
    const f = await fixture();
    await makeScimToken(f);
    const res = await f.O.browser.request("GET", "/scim/v2/ServiceProviderConfig");
    expect(res.status).toBe(401);
  });

  it("a revoked or rotated token stops at once", async () => {
    const f = await fixture();
    const first = await makeScimToken(f);
    const second = await makeScimToken(f);
    expect((await scim(f, first, "GET", "/Schemas")).status).toBe(401);
    expect((await scim(f, second, "GET", "/Schemas")).status).toBe(200);
    await f.O.browser.post("/scim/delete-provider-connection", { providerId: "okta" });
    expect((await scim(f, second, "GET", "/Schemas")).status).toBe(401);
  });
});

describe("connections declared in the options", () => {
  const declared = "declared-token-0123456789abcdefghijklmnop";

  it("a declared token reaches its organization by slug, and audits as scim:<connection id>", async () => {
    const f = await fixture({
      scim: { connections: [{ id: "okta-prod", organization: "org-b", token: declared }] },
    });
    const res = await scim(f, declared, "POST", "/Users", { userName: "dee@acme.test" });
    expect(res.status).toBe(201);
    const user = await f.t.db.collection("users").findOne({ email: "dee@acme.test" });
    const member = await f.t.db.collection("members").findOne({ userId: user!._id });
    expect(String(member!.organizationId)).toBe(f.B);
    const audit = await f.t.db
      .collection("auditEvents")
      .findOne({ action: "organization.add-member", subjectId: user!._id });
    expect(audit!.actor).toBe("scim:okta-prod");
    expect((await scim(f, `${declared}x`, "GET", "/Users")).status).toBe(401);
  });

  it("refuses a short token when createAuth runs", async () => {
    await expect(
      fixture({ scim: { connections: [{ id: "x", organization: "org-a", token: "short" }] } }),
    ).rejects.toThrow(/scim\.connections\.0\.token/);
  });
});
