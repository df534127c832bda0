import { describe, expect, it } from "vitest";
import { useFixtures } from "#test/organization.ts";
import { makeScimToken, scim, scimErrorBody } from "#test/scim.ts";

/** /scim/v2 is rate limited per token (docs/security.md "SCIM"): 429 in the SCIM error schema. */
const fixture = useFixtures();
/** The fixture's own sign-ups and set-up stay under the other limits. */
const setUpFreely = { window: 10, max: 100_000, customRules: { "/sign-up/email": false as const } };

describe("SCIM rate limit", () => {
  it("counts per token whatever the address, answers 429 with Retry-After, other tokens unaffected", async () => {
    const f = await fixture({
      rateLimit: {
        ...setUpFreely,
        enabled: true,
        customRules: { ...setUpFreely.customRules, "/scim/v2": { window: 60, max: 3 } },
      },
    });
    const token = await makeScimToken(f);
    const other = await makeScimToken(f, "B");
    for (const ip of ["10.0.0.1", "10.0.0.2", "10.0.0.3"])
      expect((await scim(f, token, "GET", "/Users", undefined, { "x-forwarded-for": ip })).status).toBe(200);
    const refused = await scim(
      f,
      token,
      "POST",
      "/Users",
      { userName: "ada@acme.test" },
      { "x-forwarded-for": "10.0.0.4" },
    );
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("content-type")).toBe("application/scim+json; charset=utf-8");
    expect(refused.body).toEqual(
      scimErrorBody(
        429,
        `Too many requests for this token: retry in ${refused.headers.get("retry-after")} seconds`,
        "tooMany",
      ),
    );
    // Nothing was written by the refused request.
    expect(await f.t.db.collection("users").countDocuments({ email: "ada@acme.test" })).toBe(0);
    expect((await scim(f, other, "GET", "/Users")).status).toBe(200);
  });

  it("the default budget lets an identity provider's burst through", async () => {
    const f = await fixture({ rateLimit: { ...setUpFreely, enabled: true } });
    const token = await makeScimToken(f);
    const answers = await Promise.all(
      Array.from({ length: 150 }, () => scim(f, token, "GET", "/ServiceProviderConfig")),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
  });
});
