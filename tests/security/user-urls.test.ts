import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { TEST_ORIGIN, type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

/**
 * docs/security.md "URLs users supply": a user's image and an
 * organization's logo are rendered by the app for others, so only `https:` URLs are stored — and
 * `http:` ones while the auth server runs on http. `javascript:` and `data:` URLs were accepted.
 * A refusal is 400 VALIDATION_ERROR naming the field (never the value), and nothing is stored.
 */
let t: TestAuth | null = null;
const freshTestAuth = useFreshTestAuth();

const BAD_URLS = [
  "javascript:alert(document.cookie)",
  "JavaScript:alert(1)",
  "data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+",
  "vbscript:msgbox(1)",
  "/relative/avatar.png",
  "https://user:pass@cdn.example.com/a.png",
];

/** The exact 400 for a refused URL field on the test server (http base URL). */
function refused(path: string, schemes = "an http(s) URL") {
  return {
    status: 400,
    body: {
      code: "VALIDATION_ERROR",
      message: "Invalid request",
      issues: [{ path, message: `must be ${schemes} or null` }],
    },
  };
}

async function signedIn(test: TestAuth, name = "ada") {
  const browser = new TestBrowser(test.auth);
  const res = await signUp(browser, { email: `${name}@example.com`, name });
  expect(res.status).toBe(200);
  return { browser, id: new ObjectId(res.body.user.id) };
}

const imageOf = async (test: TestAuth, id: ObjectId) =>
  (await test.db.collection("users").findOne({ _id: id }))?.image;

describe("a user's image", () => {
  it.each(BAD_URLS)("sign-up refuses image %s and stores no user", async (image) => {
    t = await freshTestAuth();
    const res = await new TestBrowser(t.auth).post("/sign-up/email", {
      name: "Ada",
      email: "ada@example.com",
      password: "correct horse battery",
      image,
    });
    expect({ status: res.status, body: res.body }).toEqual(refused("image"));
    expect(await t.db.collection("users").countDocuments()).toBe(0);
    expect(await t.db.collection("accounts").countDocuments()).toBe(0);
  });

  it.each(BAD_URLS)("update-user refuses image %s and keeps the stored one", async (image) => {
    t = await freshTestAuth();
    const ada = await signedIn(t);
    await ada.browser.post("/update-user", { image: "https://cdn.example.com/ada.png" });
    const res = await ada.browser.post("/update-user", { image });
    expect({ status: res.status, body: res.body }).toEqual(refused("image"));
    expect(await imageOf(t, ada.id)).toBe("https://cdn.example.com/ada.png");
  });

  it("update-user stores an https URL, and null or an empty string clears it", async () => {
    t = await freshTestAuth();
    const ada = await signedIn(t);
    const set = await ada.browser.post("/update-user", { image: "https://cdn.example.com/ada.png" });
    expect(set.status).toBe(200);
    expect(await imageOf(t, ada.id)).toBe("https://cdn.example.com/ada.png");
    expect((await ada.browser.post("/update-user", { image: null })).status).toBe(200);
    expect(await imageOf(t, ada.id)).toBeNull();
    await ada.browser.post("/update-user", { image: "https://cdn.example.com/ada.png" });
    expect((await ada.browser.post("/update-user", { image: "" })).status).toBe(200);
    expect(await imageOf(t, ada.id)).toBeNull();
  });

  it("with an https base URL, an http image is refused too; an https one is stored", async () => {
    t = await freshTestAuth({ baseURL: "https://auth.example.com", trustedOrigins: [TEST_ORIGIN] });
    const ada = await signedIn(t);
    const res = await ada.browser.post("/update-user", { image: "http://cdn.example.com/ada.png" });
    expect({ status: res.status, body: res.body }).toEqual(refused("image", "an https URL"));
    expect(await imageOf(t, ada.id)).toBeNull();
    const ok = await ada.browser.post("/update-user", { image: "https://cdn.example.com/ada.png" });
    expect(ok.status).toBe(200);
    expect(await imageOf(t, ada.id)).toBe("https://cdn.example.com/ada.png");
  });

  it("with an http base URL (development), an http image is stored", async () => {
    t = await freshTestAuth();
    const ada = await signedIn(t);
    const res = await ada.browser.post("/update-user", { image: "http://localhost:3000/ada.png" });
    expect(res.status).toBe(200);
    expect(await imageOf(t, ada.id)).toBe("http://localhost:3000/ada.png");
  });

  it("an administrator's create-user and update-user refuse a javascript: image, storing nothing", async () => {
    t = await freshTestAuth();
    const admin = await signedIn(t, "admin");
    await t.db.collection("users").updateOne({ _id: admin.id }, { $set: { role: "admin" } });
    const bob = await signedIn(t, "bob");
    const created = await admin.browser.post("/admin/create-user", {
      email: "carol@example.com",
      name: "Carol",
      password: "correct horse battery",
      data: { image: "javascript:alert(1)" },
    });
    expect({ status: created.status, body: created.body }).toEqual(refused("data.image"));
    expect(await t.db.collection("users").countDocuments({ email: "carol@example.com" })).toBe(0);
    const updated = await admin.browser.post("/admin/update-user", {
      userId: bob.id.toHexString(),
      data: { image: "data:text/html,<script>alert(1)</script>" },
    });
    expect({ status: updated.status, body: updated.body }).toEqual(refused("data.image"));
    expect(await imageOf(t, bob.id)).toBeNull();
    expect(await t.db.collection("auditEvents").countDocuments()).toBe(0);
  });
});

describe("an organization's logo", () => {
  it("create refuses a javascript: logo and stores no organization", async () => {
    t = await freshTestAuth();
    const ada = await signedIn(t);
    const res = await ada.browser.post("/organization/create", {
      name: "Acme",
      slug: "acme",
      logo: "javascript:alert(1)",
    });
    expect({ status: res.status, body: res.body }).toEqual(refused("logo"));
    expect(await t.db.collection("organizations").countDocuments()).toBe(0);
    expect(await t.db.collection("members").countDocuments()).toBe(0);
  });

  it("update refuses a data: logo and keeps the stored one; null clears it", async () => {
    t = await freshTestAuth();
    const ada = await signedIn(t);
    const created = await ada.browser.post<{ id: string }>("/organization/create", {
      name: "Acme",
      slug: "acme",
      logo: "https://cdn.example.com/acme.png",
    });
    expect(created.status).toBe(200);
    const organizationId = created.body.id;
    const logoOf = async () =>
      (await t!.db.collection("organizations").findOne({ _id: new ObjectId(organizationId) }))?.logo;
    expect(await logoOf()).toBe("https://cdn.example.com/acme.png");
    const res = await ada.browser.post("/organization/update", {
      organizationId,
      data: { logo: "data:image/svg+xml,<svg onload=alert(1)>" },
    });
    expect({ status: res.status, body: res.body }).toEqual(refused("data.logo"));
    expect(await logoOf()).toBe("https://cdn.example.com/acme.png");
    const cleared = await ada.browser.post("/organization/update", { organizationId, data: { logo: null } });
    expect(cleared.status).toBe(200);
    expect(await logoOf()).toBeNull();
  });
});
