import { describe, expect, it } from "vitest";
import { mapSamlAssertion } from "./map-assertion.ts";

const EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
const PERSISTENT = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";

describe("mapSamlAssertion", () => {
  it("reads Better Auth's default attribute names; the NameID is the account id", () => {
    const mapped = mapSamlAssertion(
      {
        nameId: "u-123",
        nameIdFormat: PERSISTENT,
        attributes: {
          email: " Ada@Corp.com ",
          givenName: "Ada",
          surname: "Lovelace",
          groups: ["eng", "ops"],
        },
      },
      {},
    );
    expect(mapped).toEqual({
      id: "u-123",
      email: "ada@corp.com",
      emailVerified: false,
      name: "Ada Lovelace",
      image: null,
      groups: ["eng", "ops"],
    });
  });

  it("reads the claim URIs Entra ID sends", () => {
    const mapped = mapSamlAssertion(
      {
        nameId: "x",
        nameIdFormat: PERSISTENT,
        attributes: {
          "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress": "grace@corp.com",
          "http://schemas.microsoft.com/identity/claims/displayname": "Grace Hopper",
          "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups": "admins",
        },
      },
      {},
    );
    expect(mapped).toMatchObject({ email: "grace@corp.com", name: "Grace Hopper", groups: ["admins"] });
  });

  it("takes the address from an emailAddress NameID only when no attribute carries one", () => {
    expect(
      mapSamlAssertion({ nameId: "Ada@corp.com", nameIdFormat: EMAIL_FORMAT, attributes: {} }, {}).email,
    ).toBe("ada@corp.com");
    expect(
      mapSamlAssertion({ nameId: "ada@corp.com", nameIdFormat: PERSISTENT, attributes: {} }, {}).email,
    ).toBe(null);
  });

  it("follows the connection's mapping, the account id included", () => {
    const mapped = mapSamlAssertion(
      {
        nameId: "transient-1",
        nameIdFormat: null,
        attributes: { uid: "u-9", mailAddress: "lin@corp.com", fullName: "Lin", email: "other@corp.com" },
      },
      { id: "uid", email: "mailAddress", name: "fullName" },
    );
    expect(mapped).toMatchObject({ id: "u-9", email: "lin@corp.com", name: "Lin" });
  });

  it("has no account id when the mapped attribute is missing", () => {
    expect(mapSamlAssertion({ nameId: "n", nameIdFormat: null, attributes: {} }, { id: "uid" }).id).toBe(
      null,
    );
  });
});
