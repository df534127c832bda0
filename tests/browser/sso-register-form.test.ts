import { describe, expect, it } from "vitest";
import { readRegisterForm } from "../../apps/remix-demo/app/lib/sso-connections.server.ts";

/**
 * The SSO page's add form (app/lib/sso-connections.server.ts) sent empty: which field the page
 * marks, and with which message (validation.REQUIRED or validation.SSO_FIELD_REQUIRED).
 */
function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}

const ORGANIZATION = "6650f1c2a4e0b9d3c1a2b3c4";

describe("the SSO add form sent empty", () => {
  it("OIDC: name and issuer are 'required'; client ID and secret 'required for this protocol'", () => {
    expect(readRegisterForm(formOf({ type: "oidc" }), ORGANIZATION)).toEqual({
      missing: {
        providerId: "REQUIRED",
        issuer: "REQUIRED",
        clientId: "SSO_FIELD_REQUIRED",
        clientSecret: "SSO_FIELD_REQUIRED",
      },
    });
  });

  it("SAML: the name is 'required'; issuer, sign-in URL and certificate (or metadata) 'for this protocol'", () => {
    expect(readRegisterForm(formOf({ type: "saml" }), ORGANIZATION)).toEqual({
      missing: {
        providerId: "REQUIRED",
        issuer: "SSO_FIELD_REQUIRED",
        entryPoint: "SSO_FIELD_REQUIRED",
        cert: "SSO_FIELD_REQUIRED",
      },
    });
  });
});
