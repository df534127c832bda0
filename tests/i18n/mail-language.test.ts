import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import { createOrganization, signIn } from "#test/organization.ts";
import { useFreshTestAuth } from "#test/test-auth.ts";
import { renderMail } from "../../packages/auth-core/src/mail/templates/index.ts";

/**
 * A mail goes in the recipient's language — the one chosen at sign-up or
 * later through update-user — and in the configured `language` while the user has chosen none (an
 * invitation to an address that is no user's too).
 */
const freshTestAuth = useFreshTestAuth();
const PASSWORD = "correct horse battery";

function subjectOf(
  kind: "verify-email" | "reset-password" | "invitation",
  language: Parameters<typeof renderMail>[1],
): string {
  const data = { url: "https://tessera.test/link", organizationName: "o", inviterName: "i", role: "r" };
  return renderMail(kind, language, { ...data, appName: "Tessera", expiresInMinutes: 60 }).subject;
}

describe("the language of a user's mails", () => {
  it("the verification mail of a sign-up is in the language chosen at sign-up, which is stored", async () => {
    const t = await freshTestAuth({ emailVerification: { sendOnSignUp: true } });
    const res = await new TestBrowser(t.auth).post<{ user: { id: string } }>("/sign-up/email", {
      name: "Jan",
      email: "jan@example.com",
      password: PASSWORD,
      language: "POL",
    });
    expect(res.status).toBe(200);
    expect(t.outbox.latestTo("jan@example.com")?.subject).toBe(subjectOf("verify-email", "POL"));
    expect(t.outbox.latestTo("jan@example.com")?.subject).toContain("Potwierdź");
    const stored = await t.db.collection("users").findOne({ _id: new ObjectId(res.body.user.id) });
    expect(stored?.language).toBe("POL");
  });

  it("without a choice, mails go in the configured language and nothing is stored", async () => {
    const t = await freshTestAuth({ language: "GERMAN", emailVerification: { sendOnSignUp: true } });
    const res = await new TestBrowser(t.auth).post<{ user: { id: string } }>("/sign-up/email", {
      name: "Uta",
      email: "uta@example.com",
      password: PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(t.outbox.latestTo("uta@example.com")?.subject).toBe(subjectOf("verify-email", "GERMAN"));
    const stored = await t.db.collection("users").findOne({ _id: new ObjectId(res.body.user.id) });
    expect(stored).not.toHaveProperty("language");
  });

  it("update-user changes the language of the next mail", async () => {
    const t = await freshTestAuth();
    const browser = new TestBrowser(t.auth);
    await browser.post("/sign-up/email", { name: "Olena", email: "olena@example.com", password: PASSWORD });
    expect((await browser.post("/update-user", { language: "UKR" })).status).toBe(200);
    await new TestBrowser(t.auth).post("/request-password-reset", { email: "olena@example.com" });
    expect(t.outbox.latestTo("olena@example.com")?.subject).toBe(subjectOf("reset-password", "UKR"));

    expect((await browser.post("/update-user", { language: "TURKEY" })).status).toBe(200);
    await new TestBrowser(t.auth).post("/request-password-reset", { email: "olena@example.com" });
    expect(t.outbox.latestTo("olena@example.com")?.subject).toBe(subjectOf("reset-password", "TURKEY"));
  });

  it("a language outside the eight is refused, at sign-up and on update-user", async () => {
    const t = await freshTestAuth();
    const browser = new TestBrowser(t.auth);
    const signUp = await browser.post("/sign-up/email", {
      name: "Kim",
      email: "kim@example.com",
      password: PASSWORD,
      // Portuguese: a well-formed BCP 47 tag of a language outside the eight ("en" now names ENG).
      language: "pt-BR",
    });
    expect(signUp.status).toBe(400);
    expect(await t.db.collection("users").countDocuments()).toBe(0);
    await browser.post("/sign-up/email", { name: "Kim", email: "kim@example.com", password: PASSWORD });
    const update = await browser.post("/update-user", { language: "KLINGON" });
    expect(update.status).toBe(400);
    expect(await t.db.collection("users").findOne({ email: "kim@example.com" })).not.toHaveProperty(
      "language",
    );
  });

  it("an invitation to a user's address goes in their language; to an unknown address, in the configured one", async () => {
    const t = await freshTestAuth({ language: "SPA" });
    const owner = await signIn(t, "owner");
    const invitee = await signIn(t, "invitee");
    expect((await invitee.browser.post("/update-user", { language: "FRA" })).status).toBe(200);
    const organizationId = await createOrganization(owner, "acme");
    for (const email of [invitee.email, "stranger@example.com"]) {
      const res = await owner.browser.post("/organization/invite-member", {
        organizationId,
        email,
        role: "member",
      });
      expect(res.status).toBe(200);
    }
    expect(t.outbox.latestTo(invitee.email)?.subject).toBe(subjectOf("invitation", "FRA"));
    expect(t.outbox.latestTo("stranger@example.com")?.subject).toBe(subjectOf("invitation", "SPA"));
  });
});
