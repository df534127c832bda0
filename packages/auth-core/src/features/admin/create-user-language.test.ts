import { describe, expect, it } from "vitest";
import { useAdminCast } from "#test/admin.ts";

/**
 * Issue 14 gap 5: admin create-user takes the new user's language, one of the eight codes (or a BCP 47
 * tag of theirs: tests/client/language-tags.test.ts).
 */
const { t, admin } = useAdminCast({ open: "once" });

const users = () => t.db.collection("users");

describe("POST /admin/create-user {language}", () => {
  it("stores the language given and answers it on the user", async () => {
    const res = await admin.browser.post<{ user: { language?: string } }>("/admin/create-user", {
      email: "olena@example.com",
      name: "Olena",
      language: "UKR",
    });
    expect(res.status).toBe(200);
    expect(res.body.user.language).toBe("UKR");
    expect((await users().findOne({ email: "olena@example.com" }))?.language).toBe("UKR");
  });

  it("leaves the language unset without one (mails then go in the configured language)", async () => {
    const res = await admin.browser.post<{ user: { language?: string } }>("/admin/create-user", {
      email: "nolang@example.com",
      name: "No Lang",
    });
    expect(res.status).toBe(200);
    expect(res.body.user.language).toBeUndefined();
    expect(await users().findOne({ email: "nolang@example.com" })).not.toHaveProperty("language");
  });

  it.each([["pt-BR"], ["ukr"], ["PORTUGUESE"], [""], [["UKR"]], [{ $ne: null }], [7]])(
    "refuses the language %j with 400 Invalid request and creates no user",
    async (language) => {
      const before = await users().countDocuments();
      const res = await admin.browser.post("/admin/create-user", {
        email: "refused@example.com",
        name: "Refused",
        language,
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid request" });
      expect(await users().countDocuments()).toBe(before);
      expect(await users().findOne({ email: "refused@example.com" })).toBeNull();
    },
  );

  it("reaches the user's mails: a reset link requested for them comes in their language", async () => {
    await admin.browser.post("/admin/create-user", {
      email: "jurgen@example.com",
      name: "Jürgen",
      language: "GERMAN",
    });
    const res = await admin.browser.post("/request-password-reset", { email: "jurgen@example.com" });
    expect(res.status).toBe(200);
    expect(t.outbox.latestTo("jurgen@example.com")?.subject).toMatch(
      /^Setzen Sie Ihr Passwort für .+ zurück$/,
    );
  });
});
