import { describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import { createOrganization, errorBody, type SignedIn, signIn } from "#test/organization.ts";
import {
  buildResponse,
  createTestIdp,
  decodeAuthnRequest,
  insertIntoNameId,
  postToAcs,
  readAttribute,
  registerSamlConnection,
  responseFieldsFor,
  type TestIdp,
} from "#test/saml-idp.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

/*
 * The ACS over HTTP (docs/security.md "SAML"): what a refused response answers and that it changes
 * nothing; InResponseTo, IdP-initiated sign-in, RelayState and replay, which need the database.
 */

const openAuth = useFreshTestAuth();

interface Setup {
  t: TestAuth;
  owner: SignedIn;
  organizationId: string;
  idp: TestIdp;
  /** A browser of someone signing in through the IdP. */
  visitor: TestBrowser;
}

async function setUp(connection: Parameters<typeof registerSamlConnection>[3] = {}): Promise<Setup> {
  const t = await openAuth();
  const owner = await signIn(t, "owner");
  const organizationId = await createOrganization(owner, "corp");
  const idp = createTestIdp();
  await registerSamlConnection(owner.browser, organizationId, idp, connection);
  return { t, owner, organizationId, idp, visitor: new TestBrowser(t.auth, null) };
}

/** Starts an SP-initiated sign-in at /sign-in/sso; answers the AuthnRequest's ID. */
async function startSignIn(s: Setup, providerId = "corp", callbackURL = "/dashboard"): Promise<string> {
  const res = await s.visitor.post<{ url: string }>("/sign-in/sso", { providerId, callbackURL });
  expect(res.status).toBe(200);
  return readAttribute(decodeAuthnRequest(res.body.url), "AuthnRequest", "ID")!;
}

/** What a refused response must leave as it was. */
async function countRows(t: TestAuth) {
  const count = (name: string) => t.db.collection(name).countDocuments();
  return {
    users: await count("users"),
    sessions: await count("sessions"),
    members: await count("members"),
    accounts: await count("accounts"),
  };
}

async function expectRefused(
  s: Setup,
  post: () => Promise<{ status: number; body: unknown; headers: Headers }>,
  code: string,
  message: string,
  status = 400,
) {
  const before = await countRows(s.t);
  const res = await post();
  expect({ status: res.status, body: res.body }).toEqual({ status, body: errorBody(code, message) });
  expect(res.headers.getSetCookie()).toEqual([]);
  expect(await countRows(s.t)).toEqual(before);
}

const REQUEST_UNKNOWN =
  "The SAML response does not answer a sign-in started here, or that sign-in has expired: start the sign-in again";

describe("InResponseTo", () => {
  it("a response to a request we never issued is refused", async () => {
    const s = await setUp();
    const xml = buildResponse(s.idp, responseFieldsFor("corp", "ada@corp.com", "_never-issued"));
    await expectRefused(s, () => postToAcs(s.visitor, "corp", xml), "SAML_REQUEST_UNKNOWN", REQUEST_UNKNOWN);
  });

  it("a response to a request made for another connection is refused at this one's ACS", async () => {
    const s = await setUp();
    const otherIdp = createTestIdp("https://idp.other.test/metadata");
    await registerSamlConnection(s.owner.browser, s.organizationId, otherIdp, { providerId: "other" });
    const requestForOther = await startSignIn(s, "other");
    const xml = buildResponse(s.idp, responseFieldsFor("corp", "ada@corp.com", requestForOther));
    await expectRefused(s, () => postToAcs(s.visitor, "corp", xml), "SAML_REQUEST_UNKNOWN", REQUEST_UNKNOWN);
  });

  it("a request expires after 10 minutes", async () => {
    const s = await setUp();
    const requestId = await startSignIn(s);
    s.t.advance(10 * 60 + 1);
    // A response fresh on both the app's clock (advanced) and node-saml's (the machine's); the request is not.
    const xml = buildResponse(s.idp, {
      ...responseFieldsFor("corp", "ada@corp.com", requestId),
      notBefore: new Date(Date.now() - 60_000),
      notOnOrAfter: new Date(s.t.now().getTime() + 5 * 60_000),
    });
    await expectRefused(s, () => postToAcs(s.visitor, "corp", xml), "SAML_REQUEST_UNKNOWN", REQUEST_UNKNOWN);
  });

  it("answering a request signs in once: the same response posted again is refused", async () => {
    const s = await setUp();
    const requestId = await startSignIn(s);
    const xml = buildResponse(s.idp, responseFieldsFor("corp", "ada@corp.com", requestId));
    expect((await postToAcs(s.visitor, "corp", xml)).status).toBe(302);
    const replayer = new TestBrowser(s.t.auth, null);
    await expectRefused(s, () => postToAcs(replayer, "corp", xml), "SAML_REQUEST_UNKNOWN", REQUEST_UNKNOWN);
  });
});

describe("IdP-initiated sign-in", () => {
  it("is refused by default", async () => {
    const s = await setUp();
    const xml = buildResponse(s.idp, responseFieldsFor("corp", "ada@corp.com", null));
    await expectRefused(
      s,
      () => postToAcs(s.visitor, "corp", xml, "/dashboard"),
      "SAML_IDP_INITIATED_NOT_ALLOWED",
      "This connection does not accept sign-ins started at the identity provider",
    );
  });

  it("where the connection allows it, signs in and goes to the RelayState path", async () => {
    const s = await setUp({ samlConfig: { allowIdpInitiated: true } });
    const xml = buildResponse(s.idp, responseFieldsFor("corp", "ada@corp.com", null));
    const res = await postToAcs(s.visitor, "corp", xml, "/dashboard?tab=1");
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({
      status: 302,
      location: "/dashboard?tab=1",
    });
    const session = await s.visitor.get<{ user: { email: string } }>("/get-session");
    expect(session.body.user.email).toBe("ada@corp.com");
  });

  for (const relayState of [
    "https://evil.example/",
    "//evil.example/path",
    "/\\evil.example",
    "javascript:alert(1)",
  ])
    it(`a RelayState outside the app (${relayState}) is refused`, async () => {
      const s = await setUp({ samlConfig: { allowIdpInitiated: true } });
      const xml = buildResponse(s.idp, responseFieldsFor("corp", "ada@corp.com", null));
      await expectRefused(
        s,
        () => postToAcs(s.visitor, "corp", xml, relayState),
        "INVALID_REDIRECT_URL",
        "Invalid redirectURL",
        403,
      );
    });

  it("a replayed assertion is refused while it could be valid, and cleanup forgets it once expired", async () => {
    const s = await setUp({ samlConfig: { allowIdpInitiated: true } });
    const xml = buildResponse(s.idp, responseFieldsFor("corp", "ada@corp.com", null));
    expect((await postToAcs(s.visitor, "corp", xml)).status).toBe(302);
    const stored = await s.t.db.collection("samlReplays").find().toArray();
    expect(stored.map(({ issuer, providerId }) => ({ issuer, providerId }))).toEqual([
      { issuer: s.idp.entityId, providerId: "corp" },
    ]);
    const replayer = new TestBrowser(s.t.auth, null);
    await expectRefused(
      s,
      () => postToAcs(replayer, "corp", xml),
      "SAML_ASSERTION_REPLAYED",
      "This SAML assertion has already been used",
    );
    // Kept until NotOnOrAfter (5 minutes) plus the 2-minute skew.
    expect((await s.t.auth.cleanup()).samlReplays).toBe(0);
    s.t.advance(7 * 60 + 1);
    expect((await s.t.auth.cleanup()).samlReplays).toBe(1);
  });

  it("of two posts of one assertion at the same time, one signs in", async () => {
    const s = await setUp({ samlConfig: { allowIdpInitiated: true } });
    const xml = buildResponse(s.idp, responseFieldsFor("corp", "ada@corp.com", null));
    const browsers = Array.from({ length: 4 }, () => new TestBrowser(s.t.auth, null));
    const answers = await Promise.all(browsers.map((browser) => postToAcs(browser, "corp", xml)));
    expect(answers.map((res) => res.status).sort()).toEqual([302, 400, 400, 400]);
    expect(await s.t.db.collection("sessions").countDocuments({})).toBe(2); // the owner's and one
  });
});

describe("the connection", () => {
  it("a response signed by connection A's IdP is refused at connection B's ACS", async () => {
    const s = await setUp();
    const idpB = createTestIdp("https://idp-b.test/metadata");
    await registerSamlConnection(s.owner.browser, s.organizationId, idpB, { providerId: "b" });
    const requestForB = await startSignIn(s, "b");
    // A's IdP answers B's request with B's ACS and B's IdP as issuer: only B's key is trusted there.
    const xml = buildResponse(s.idp, {
      ...responseFieldsFor("b", "ceo@corp.com", requestForB),
      issuer: idpB.entityId,
    });
    await expectRefused(
      s,
      () => postToAcs(s.visitor, "b", xml),
      "INVALID_SAML_RESPONSE",
      "The SAML response is invalid or its signature could not be verified",
    );
  });

  it("a turned-off connection refuses its IdP's responses", async () => {
    const s = await setUp({ enabled: false, samlConfig: { allowIdpInitiated: true } });
    const xml = buildResponse(s.idp, responseFieldsFor("corp", "ada@corp.com", null));
    await expectRefused(
      s,
      () => postToAcs(s.visitor, "corp", xml),
      "SSO_PROVIDER_DISABLED",
      "This SSO connection is turned off",
      403,
    );
  });

  it("a connection without the IdP's certificate refuses every response", async () => {
    const s = await setUp({ samlConfig: { cert: undefined, allowIdpInitiated: true } });
    const xml = buildResponse(s.idp, responseFieldsFor("corp", "ada@corp.com", null));
    await expectRefused(
      s,
      () => postToAcs(s.visitor, "corp", xml),
      "SAML_CONFIG_INCOMPLETE",
      "The SAML connection lacks the identity provider's entity ID or signing certificate",
    );
  });

  it("an unknown providerId is not found", async () => {
    const s = await setUp();
    const xml = buildResponse(s.idp, responseFieldsFor("nobody", "ada@corp.com", null));
    await expectRefused(
      s,
      () => postToAcs(s.visitor, "nobody", xml),
      "SSO_PROVIDER_NOT_FOUND",
      "SSO provider not found",
      404,
    );
  });
});

describe("the attack corpus over HTTP", () => {
  it("a comment inside the NameID signs nobody in, least of all victim@corp.com", async () => {
    const s = await setUp({ samlConfig: { allowIdpInitiated: true } });
    const fields = { ...responseFieldsFor("corp", "victim@corp.com.evil.com", null), attributes: {} };
    const xml = insertIntoNameId(s.idp, fields, "victim@corp.com".length);
    await expectRefused(
      s,
      () => postToAcs(s.visitor, "corp", xml),
      "SAML_XML_NOT_ALLOWED",
      "The SAML response contains a DOCTYPE, a comment or a processing instruction, which are not allowed",
    );
    expect(await s.t.db.collection("users").countDocuments({ email: /victim/ })).toBe(0);
  });
});
