import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import { createOrganization, signIn } from "#test/organization.ts";
import {
  buildResponse,
  createTestIdp,
  decodeAuthnRequest,
  postToAcs,
  readAttribute,
  registerSamlConnection,
  responseFieldsFor,
  TEST_SP_ENTITY_ID,
} from "#test/saml-idp.ts";
import { TEST_ORIGIN, useFreshTestAuth } from "#test/test-auth.ts";

/*
 * A whole SP-initiated SAML sign-in through auth.handler: /sign-in/sso answers the IdP's URL with
 * our AuthnRequest, the IdP signs a response to it, the browser posts it to the ACS and is signed
 * in, a member of the connection's organization.
 */

const openAuth = useFreshTestAuth();
const ACS_URL = `${TEST_ORIGIN}/api/auth/sso/saml2/sp/acs/corp`;

describe("SAML sign-in", () => {
  it("from /sign-in/sso through the IdP to the ACS: a session and a membership", async () => {
    const t = await openAuth();
    const owner = await signIn(t, "owner");
    const organizationId = await createOrganization(owner, "corp");
    const idp = createTestIdp();
    await registerSamlConnection(owner.browser, organizationId, idp, { defaultRole: "member" });

    const browser = new TestBrowser(t.auth);
    const start = await browser.post<{ url: string; redirect: boolean }>("/sign-in/sso", {
      providerId: "corp",
      callbackURL: "/dashboard",
    });
    expect(start.status).toBe(200);
    expect(start.body.url.startsWith(`${idp.ssoUrl}?SAMLRequest=`)).toBe(true);
    const request = decodeAuthnRequest(start.body.url);
    const requestId = readAttribute(request, "AuthnRequest", "ID");
    expect(requestId).toMatch(/^_[0-9a-f]{40}$/);
    expect(readAttribute(request, "AuthnRequest", "AssertionConsumerServiceURL")).toBe(ACS_URL);
    expect(readAttribute(request, "AuthnRequest", "Destination")).toBe(idp.ssoUrl);
    expect(readAttribute(request, "AuthnRequest", "ProtocolBinding")).toBe(
      "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST",
    );
    expect(request).toContain(`>${TEST_SP_ENTITY_ID}</saml:Issuer>`);

    const response = buildResponse(idp, {
      ...responseFieldsFor("corp", "Ada.Lovelace@corp.com", requestId),
      attributes: { email: "Ada.Lovelace@corp.com", givenName: "Ada", surname: "Lovelace" },
    });
    const acs = await postToAcs(browser, "corp", response);
    expect({ status: acs.status, location: acs.headers.get("location") }).toEqual({
      status: 302,
      location: "/dashboard",
    });

    const session = await browser.get<{ user: { id: string; email: string; name: string } }>("/get-session");
    expect(session.body.user).toMatchObject({ email: "ada.lovelace@corp.com", name: "Ada Lovelace" });
    const userId = new ObjectId(session.body.user.id);
    const members = await t.db.collection("members").find({ userId }).toArray();
    expect(
      members.map((member) => ({ organizationId: String(member.organizationId), role: member.role })),
    ).toEqual([{ organizationId, role: "member" }]);
    const accounts = await t.db.collection("accounts").find({ userId }).toArray();
    expect(accounts.map(({ providerId, accountId }) => ({ providerId, accountId }))).toEqual([
      { providerId: "corp", accountId: "Ada.Lovelace@corp.com" },
    ]);
  });

  it("the SP metadata names the entity ID and the ACS URL", async () => {
    const t = await openAuth();
    const owner = await signIn(t, "owner");
    const organizationId = await createOrganization(owner, "corp");
    await registerSamlConnection(owner.browser, organizationId, createTestIdp());
    const res = await new TestBrowser(t.auth).get<string>("/sso/saml2/sp/metadata?providerId=corp");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/samlmetadata+xml");
    expect(readAttribute(res.body, "EntityDescriptor", "entityID")).toBe(TEST_SP_ENTITY_ID);
    expect(readAttribute(res.body, "AssertionConsumerService", "Location")).toBe(ACS_URL);
    expect(readAttribute(res.body, "AssertionConsumerService", "Binding")).toBe(
      "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST",
    );
    expect(readAttribute(res.body, "SPSSODescriptor", "WantAssertionsSigned")).toBe("true");
  });

  it("the SP metadata of an unknown providerId is not found", async () => {
    const t = await openAuth();
    const res = await new TestBrowser(t.auth).get("/sso/saml2/sp/metadata?providerId=nobody");
    expect({ status: res.status, body: res.body }).toEqual({
      status: 404,
      body: { code: "SSO_PROVIDER_NOT_FOUND", message: "SSO provider not found" },
    });
  });
});
