import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpUser } from "#test/browser.ts";
import { createTestAuth, type TestAuth } from "#test/test-auth.ts";
import { fieldProblems } from "../../apps/remix-demo/app/lib/field-problems.ts";

/**
 * The Remix app's reading of a VALIDATION_ERROR (app/lib/forms.server.ts): the core's real answers
 * for the fields the newcomer hit, turned into the form field and the rule the page shows.
 */
let t: TestAuth;
let headers: Headers;
beforeAll(async () => {
  t = await createTestAuth();
  const ada = await signUpUser(t, { email: "ada@example.com" });
  headers = new Headers({ cookie: ada.browser.cookieHeader() });
});
afterAll(() => t?.close());

function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}

async function refusal(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return (error as { details?: { issues?: unknown } }).details?.issues;
  }
  throw new Error("the core accepted the input");
}

describe("fieldProblems", () => {
  it("a 257-character name is 'at most 256 characters' on the name field", async () => {
    const form = formOf({ name: "N".repeat(257), image: "" });
    const issues = await refusal(() => t.auth.api.updateUser({ body: { name: "N".repeat(257) }, headers }));
    expect(fieldProblems(issues, form)).toEqual({
      errors: { name: "VALIDATION_ERROR" },
      rules: { name: { rule: "max", limit: 256 } },
    });
  });

  it("a javascript: image is the URL rule on the image field, http allowed on this http server", async () => {
    const form = formOf({ name: "Ada", image: "javascript:alert(1)" });
    const issues = await refusal(() =>
      t.auth.api.updateUser({ body: { image: "javascript:alert(1)" }, headers }),
    );
    expect(fieldProblems(issues, form)).toEqual({
      errors: { image: "VALIDATION_ERROR" },
      rules: { image: { rule: "urlHttp" } },
    });
  });

  it("on an https server the URL rule names https only", () => {
    const issues = [{ path: "image", message: "must be an https URL or null" }];
    expect(fieldProblems(issues, formOf({ image: "http://img.example/a.png" }))).toEqual({
      errors: { image: "VALIDATION_ERROR" },
      rules: { image: { rule: "url" } },
    });
  });

  it("a bad slug and a long organization name are each on their field", async () => {
    const form = formOf({ name: "O".repeat(300), slug: "-bad slug-" });
    const issues = await refusal(() =>
      t.auth.api.createOrganization({ body: { name: "O".repeat(300), slug: "-bad slug-" }, headers }),
    );
    expect(fieldProblems(issues, form)).toEqual({
      errors: { name: "VALIDATION_ERROR", slug: "VALIDATION_ERROR" },
      rules: { name: { rule: "max", limit: 256 }, slug: { rule: "format" } },
    });
  });

  it("an API path is mapped to the form's own field name, and a field the form lacks is left out", () => {
    const issues = [
      { path: "data.logo", message: "must be an https URL or null" },
      { path: "userId", message: "only server code may create for another user" },
    ];
    expect(fieldProblems(issues, formOf({ logoUrl: "x" }), { "data.logo": "logoUrl" })).toEqual({
      errors: { logoUrl: "VALIDATION_ERROR" },
      rules: { logoUrl: { rule: "url" } },
    });
    expect(fieldProblems(issues, formOf({ name: "x" }))).toEqual({ errors: {}, rules: {} });
    expect(fieldProblems(undefined, formOf({ name: "x" }))).toEqual({ errors: {}, rules: {} });
  });
});
