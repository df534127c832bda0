import { describe, expect, it } from "vitest";
import { countDocs, newBrowser, runSocialFlow, useSocialTestbed } from "#test/social.ts";

/**
 * Issue 14 gap 5: a user created by a provider sign-in gets the `language` the app sent with
 * /sign-in/social (the language it resolved for the request), and mails then come in it.
 */
const { server, t } = useSocialTestbed(["github", "google"]);

const userByEmail = (email: string) => t.db.collection("users").findOne({ email });

describe("POST /sign-in/social {language}", () => {
  it("gives a user created by the callback the language of the flow", async () => {
    server.setIdentity("github", {
      id: "6001",
      email: "oksana@example.com",
      name: "Oksana",
      emailVerified: true,
    });
    const flow = await runSocialFlow(newBrowser(t), server, {
      provider: "github",
      callbackURL: "/home",
      language: "UKR",
    });
    expect(flow.location).toBe("/home");
    expect((await userByEmail("oksana@example.com"))?.language).toBe("UKR");
    // The language is the user's from then on: their mails come in it.
    const reset = await newBrowser(t).post("/request-password-reset", { email: "oksana@example.com" });
    expect(reset.status).toBe(200);
    expect(t.outbox.latestTo("oksana@example.com")?.subject).toMatch(/^Скидання пароля для .+$/);
  });

  it("leaves a returning user's language as it is", async () => {
    server.setIdentity("github", {
      id: "6002",
      email: "back@example.com",
      name: "Back",
      emailVerified: true,
    });
    await runSocialFlow(newBrowser(t), server, { provider: "github", language: "FRA" });
    await runSocialFlow(newBrowser(t), server, { provider: "github", language: "TURKEY" });
    expect((await userByEmail("back@example.com"))?.language).toBe("FRA");
  });

  it("stores no language when the flow names none", async () => {
    server.setIdentity("github", {
      id: "6003",
      email: "plain@example.com",
      name: "Plain",
      emailVerified: true,
    });
    await runSocialFlow(newBrowser(t), server, { provider: "github" });
    expect(await userByEmail("plain@example.com")).not.toHaveProperty("language");
  });

  it("gives a user created by an id-token sign-in the language too", async () => {
    const token = server.signIdToken("google", {
      sub: "6004",
      email: "ines@example.com",
      email_verified: true,
      name: "Inés",
      nonce: "n-0S6_WzA2Mj",
    });
    const res = await newBrowser(t).post<{ user: { language?: string } }>("/sign-in/social", {
      provider: "google",
      idToken: { token, nonce: "n-0S6_WzA2Mj" },
      language: "SPA",
    });
    expect(res.status).toBe(200);
    expect(res.body.user.language).toBe("SPA");
    expect((await userByEmail("ines@example.com"))?.language).toBe("SPA");
  });

  it.each([["pt-BR"], ["ENGLISH"], [""], [["RUS"]], [{ $ne: null }]])(
    "refuses the language %j with 400 Invalid request, starting no flow",
    async (language) => {
      const before = await countDocs(t);
      const verifications = await t.db.collection("verifications").countDocuments();
      const res = await newBrowser(t).post("/sign-in/social", { provider: "github", language });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid request" });
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(await countDocs(t)).toEqual(before);
      expect(await t.db.collection("verifications").countDocuments()).toBe(verifications);
    },
  );
});
