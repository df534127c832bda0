import { describe, expect, it } from "vitest";
import { CACHE_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

const { t, openAuth } = useTestAuthPerTest();

const ADA = "ada@example.com";

async function adaDoc() {
  return t.db.collection("users").findOne({ email: ADA });
}

async function signedIn(): Promise<TestBrowser> {
  const browser = new TestBrowser(t.auth);
  await signUp(browser);
  return browser;
}

describe("POST /update-user", () => {
  it("changes the name and image; get-session shows them", async () => {
    await openAuth();
    const browser = await signedIn();
    const before = await adaDoc();
    t.advance(5);
    const res = await browser.post("/update-user", {
      name: "  Ada King ",
      image: "https://img.example/ada.png",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    const after = await adaDoc();
    expect(after).toMatchObject({
      name: "Ada King",
      image: "https://img.example/ada.png",
      emailVerified: false,
    });
    expect(after!.updatedAt.getTime()).toBeGreaterThan(before!.updatedAt.getTime());
    const session = await browser.get<{ user: { name: string; image: string } }>("/get-session");
    expect(session.body.user).toMatchObject({ name: "Ada King", image: "https://img.example/ada.png" });
  });

  it("clears the image with null and leaves the name alone", async () => {
    await openAuth();
    const browser = await signedIn();
    await browser.post("/update-user", { image: "https://img.example/ada.png" });
    const res = await browser.post("/update-user", { image: null });
    expect(res.status).toBe(200);
    expect(await adaDoc()).toMatchObject({ name: "Ada Lovelace", image: null });
  });

  it("refreshes the cookie cache so the cached get-session shows the new name at once", async () => {
    await openAuth({ session: { cookieCache: { enabled: true } } });
    const browser = await signedIn();
    const cacheBefore = browser.cookies.get(CACHE_COOKIE);
    expect(cacheBefore).toBeDefined();
    const res = await browser.post("/update-user", { name: "Countess" });
    expect(res.status).toBe(200);
    expect(browser.cookies.get(CACHE_COOKIE)).not.toBe(cacheBefore);
    const session = await browser.get<{ user: { name: string } }>("/get-session");
    expect(session.body.user.name).toBe("Countess");
  });

  it("changes only the caller's own user", async () => {
    await openAuth();
    const browser = await signedIn();
    await signUp(new TestBrowser(t.auth), { email: "bob@example.com", name: "Bob" });
    await browser.post("/update-user", { name: "Ada King" });
    expect((await t.db.collection("users").findOne({ email: "bob@example.com" }))?.name).toBe("Bob");
  });

  it("runs the user update hooks", async () => {
    const seen: unknown[] = [];
    await openAuth({
      hooks: {
        user: {
          update: {
            before: (data) => ({ data: { name: `${data.name}!` } }),
            after: (doc) => void seen.push(doc.name),
          },
        },
      },
    });
    const browser = await signedIn();
    await browser.post("/update-user", { name: "Ada" });
    expect((await adaDoc())?.name).toBe("Ada!");
    expect(seen).toEqual(["Ada!"]);
  });
});

describe("POST /update-user, refusals (database unchanged)", () => {
  it.each([
    ["email (change-email's job)", { email: "eve@evil.io" }],
    ["email alongside a name", { name: "X", email: "eve@evil.io" }],
    ["emailVerified", { emailVerified: true }],
    ["role", { role: "admin" }],
    ["an id", { _id: "0123456789abcdef01234567" }],
    ["an operator object as name", { name: { $ne: "" } }],
    ["a number as name", { name: 42 }],
    ["an array as image", { image: ["a", "b"] }],
  ])("answers 400 for %s", async (_label, body) => {
    await openAuth();
    const browser = await signedIn();
    const before = await adaDoc();
    const res = await browser.post("/update-user", body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid request" });
    expect(await adaDoc()).toEqual(before);
  });

  it("answers 400 No fields to update for an empty body", async () => {
    await openAuth();
    const browser = await signedIn();
    const before = await adaDoc();
    const res = await browser.post("/update-user", {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "NO_FIELDS_TO_UPDATE", message: "No fields to update" });
    expect(await adaDoc()).toEqual(before);
  });

  it("answers 401 without a session", async () => {
    await openAuth();
    await signUp(new TestBrowser(t.auth));
    const res = await new TestBrowser(t.auth).post("/update-user", { name: "Eve" });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "UNAUTHORIZED", message: "unauthorized" });
    expect((await adaDoc())?.name).toBe("Ada Lovelace");
  });

  it("answers 403 Invalid origin for a cross-site request with the session cookie", async () => {
    await openAuth();
    const browser = await signedIn();
    const res = await browser.post(
      "/update-user",
      { name: "Eve" },
      { headers: { origin: "https://evil.example" } },
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "INVALID_ORIGIN", message: "Invalid origin" });
    expect((await adaDoc())?.name).toBe("Ada Lovelace");
  });

  it("answers 400 Failed to update user when a hook refuses", async () => {
    await openAuth({ hooks: { user: { update: { before: () => false } } } });
    const browser = await signedIn();
    const res = await browser.post("/update-user", { name: "Eve" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "FAILED_TO_UPDATE_USER", message: "Failed to update user" });
    expect((await adaDoc())?.name).toBe("Ada Lovelace");
  });
});
