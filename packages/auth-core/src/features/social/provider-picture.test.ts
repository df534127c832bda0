import { describe, expect, it } from "vitest";
import { newBrowser, runSocialFlow, useSocialTestbed } from "#test/social.ts";

/**
 * Security-hardening finding 9 (docs/security.md, "URLs users supply"): a provider's picture is
 * stored as the new user's image only when it passes the rule for URLs users supply; otherwise the
 * user is created without an image (the sign-in does not fail over a picture). The provider
 * mappings already drop non-http(s) pictures (providers/fields.ts asImageURL); the rule adds the
 * rest: no credentials in the URL, and no http: picture while the server runs on https.
 */
const { server, t } = useSocialTestbed(["github"]);

const IDENTITY = { email: "pic@example.com", emailVerified: true, name: "Pic Ture" };

describe("a provider's picture", () => {
  it("a javascript: picture is not stored; the user is created without an image", async () => {
    server.setIdentity("github", { ...IDENTITY, id: "9001", image: "javascript:alert(1)" });
    const flow = await runSocialFlow(newBrowser(t), server, { provider: "github", callbackURL: "/home" });
    expect(flow.location).toBe("/home");
    const user = await t.db.collection("users").findOne({ email: "pic@example.com" });
    expect(user).toMatchObject({ name: "Pic Ture", image: null });
  });

  it("a picture URL carrying credentials is not stored", async () => {
    const image = "https://user:secret@avatars.example.com/u/9003.png";
    server.setIdentity("github", { ...IDENTITY, id: "9003", email: "pic3@example.com", image });
    await runSocialFlow(newBrowser(t), server, { provider: "github", callbackURL: "/home" });
    expect((await t.db.collection("users").findOne({ email: "pic3@example.com" }))?.image).toBeNull();
  });

  it("an https picture is stored", async () => {
    const image = "https://avatars.example.com/u/9002.png";
    server.setIdentity("github", { ...IDENTITY, id: "9002", email: "pic2@example.com", image });
    await runSocialFlow(newBrowser(t), server, { provider: "github", callbackURL: "/home" });
    expect((await t.db.collection("users").findOne({ email: "pic2@example.com" }))?.image).toBe(image);
  });
});
