import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { linkIn } from "../e2e/smtp-sink.ts";
import {
  APP_DIR,
  DEMO,
  expectAccessible,
  expectPath,
  expectText,
  heading,
  screenshot,
  useTestApp,
} from "./app-harness.ts";

const app = useTestApp();

describe("sign-up, sign-in and reset work with JavaScript off", () => {
  test("sign-up shows the catalogue message next to the field, then signs the new user in; the mailed link verifies", async () => {
    const page = await app.newPage({ javaScript: false });
    await page.goto("/sign-up");
    await page.getByLabel("Name").fill("Katherine Johnson");
    await page.getByLabel("Email").fill(DEMO.grace);
    await page.getByLabel("Password").fill("orbital mechanics 1962");
    await page.getByRole("button", { name: "Create account" }).click();
    await expectText(
      page.locator("#field-email-error"),
      "An account with this email address already exists. Sign in instead.",
    );
    await expectText(page.getByRole("alert"), /There is a problem/);
    expect(await page.getByLabel("Name").inputValue()).toBe("Katherine Johnson");
    await screenshot(page, "auth-sign-up-error");

    await page.getByLabel("Email").fill("katherine@example.com");
    await page.getByLabel("Password").fill("orbital mechanics 1962");
    await page.getByRole("button", { name: "Create account" }).click();
    await expectText(heading(page), "Welcome, Katherine Johnson");
    await screenshot(page, "auth-sign-up-done");

    const mail = await app.smtp.waitForMail("katherine@example.com", "Verify your email");
    await page.goto(linkIn(mail, "/verify-email").toString());
    await expectText(page.getByRole("status"), "Your email address is verified.");
    await screenshot(page, "auth-verify-email");
    const user = await app.db.collection("users").findOne({ email: "katherine@example.com" });
    expect(user?.emailVerified).toBe(true);
  });

  test("sign-in refuses a wrong password with the catalogue message, then signs in and out", async () => {
    const page = await app.newPage({ javaScript: false });
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill(DEMO.alan);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectText(page.locator(".error-summary li"), "Invalid email or password");
    expect(await page.getByLabel("Email").inputValue()).toBe(DEMO.alan);
    await screenshot(page, "auth-sign-in-error");
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectText(heading(page), "Welcome, Alan Turing");
    await expectText(page.getByTestId("active-organization"), "No active organization");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expectText(heading(page), "Sign in");
    await expectText(page.getByRole("status"), "You have signed out.");
    await screenshot(page, "auth-signed-out");
    // One notice for what happened last: a refused sign-in since replaces it.
    await page.getByLabel("Email").fill(DEMO.alan);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectText(page.locator(".error-summary li"), "Invalid email or password");
    expect(await page.getByRole("status").count()).toBe(0);
  });

  test("a forgotten password is reset through the mailed link", async () => {
    const page = await app.newPage({ javaScript: false });
    await page.goto("/sign-in");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByLabel("Email").fill(DEMO.linus);
    await page.getByRole("button", { name: "Send the link" }).click();
    await expectText(
      page.getByRole("status"),
      "If an account uses that address, a reset link is on its way.",
    );
    await screenshot(page, "auth-forgot-password");
    const mail = await app.smtp.waitForMail(DEMO.linus, "Reset your");
    await page.goto(linkIn(mail, "/reset-password/").toString());
    await expectText(heading(page), "Choose a new password");
    await page.getByLabel("New password").fill("short");
    await page.getByRole("button", { name: "Set the new password" }).click();
    await expectText(page.locator("#field-password-error"), "Password too short");
    await page.getByLabel("New password").fill("penguins all the way down");
    await page.getByRole("button", { name: "Set the new password" }).click();
    await expectText(page.getByRole("status"), "Your password has been changed. Sign in with the new one.");
    await page.getByLabel("Email").fill(DEMO.linus);
    await page.getByLabel("Password").fill("penguins all the way down");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectText(heading(page), "Welcome, Linus Torvalds");
    await screenshot(page, "auth-reset-signed-in");
  });
});

describe("with JavaScript on", () => {
  test("sign-in goes back to the page that asked for it", async () => {
    const page = await app.newPage();
    await page.goto("/account");
    await expectPath(page, "/sign-in");
    await page.getByLabel("Email").fill(DEMO.barbara);
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectPath(page, "/account");
    await screenshot(page, "auth-sign-in-redirect");
  });

  test("sign-in works from the keyboard alone, with a visible focus ring", async () => {
    const page = await app.newPage();
    await page.goto("/sign-in");
    await page.keyboard.press("Tab");
    await expectText(page.locator(":focus"), "Skip to content");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("field-email");
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe("none");
    await page.keyboard.type(DEMO.grace);
    await page.keyboard.press("Tab");
    await page.keyboard.type(DEMO.password);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expectText(page.locator(":focus"), "Sign in");
    await screenshot(page, "auth-keyboard-focus");
    await page.keyboard.press("Enter");
    await expectText(heading(page), "Welcome, Grace Hopper");
  });

  test("the auth pages and their error states pass axe", async () => {
    const page = await app.newPage();
    for (const path of [
      "/sign-up",
      "/forgot-password",
      "/reset-password?token=abc",
      "/reset-password",
      "/error?error=INVALID_TOKEN",
      "/verify-email?error=token_expired",
    ]) {
      await page.goto(path);
      await expectAccessible(page);
    }
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill("nobody@example.com");
    await page.getByLabel("Password").fill("wrong password here");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectText(page.locator(".error-summary li"), "Invalid email or password");
    await expectAccessible(page);
    await screenshot(page, "auth-sign-in-error-js");
  });
});

describe("the pages' own security", () => {
  test("pages loaded while the session ends (a sign-out in another tab) show a signed-out visitor, never the error page", async () => {
    const cookieOf = (response: Response) =>
      response.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; ");
    const statuses: number[] = [];
    // The session ends between a page's reads at most in some rounds: several, each racing loads with
    // the sign-out. The admin (the header's admin link is a read), and Grace with an active
    // organization (the header names it: another read).
    for (let round = 0; round < 12; round += 1) {
      const [email, password] =
        round % 2 === 0 ? [DEMO.admin.email, DEMO.admin.password] : [DEMO.grace, DEMO.password];
      const signedIn = await fetch(`${app.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: app.url },
        body: JSON.stringify({ email, password }),
      });
      expect(signedIn.status).toBe(200);
      const cookie = cookieOf(signedIn);
      if (email === DEMO.grace) {
        const active = await fetch(`${app.url}/api/auth/organization/set-active`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: app.url, cookie },
          body: JSON.stringify({ organizationSlug: "acme" }),
        });
        expect(active.status).toBe(200);
      }
      const load = () => fetch(`${app.url}/sign-in`, { headers: { cookie }, redirect: "manual" });
      const before = Array.from({ length: 12 }, load);
      const signOut = fetch(`${app.url}/sign-out`, {
        method: "POST",
        headers: { cookie, origin: app.url, "content-type": "application/x-www-form-urlencoded" },
        body: "",
        redirect: "manual",
      });
      const after = Array.from({ length: 12 }, load);
      const answers = await Promise.all([...before, ...after]);
      expect((await signOut).status).toBe(302);
      for (const answer of answers) {
        statuses.push(answer.status);
        const html = await answer.text();
        if (answer.status === 200) expect(html).toContain("<h1>Sign in</h1>");
      }
    }
    expect(statuses.filter((status) => status !== 200 && status !== 302)).toEqual([]);
    expect(app.log()).not.toContain("UNAUTHORIZED");
  });

  test("a form posted from another site gets the app's 403 page, not Remix's 500, and changes nothing", async () => {
    // A signed-in admin whose browser a foreign page makes post to the app's actions.
    const page = await app.newPage();
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill(DEMO.admin.email);
    await page.getByLabel("Password").fill(DEMO.admin.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectText(heading(page), /Welcome/);
    const grace = await app.db.collection("users").findOne({ email: DEMO.grace });
    const graceId = grace?._id.toHexString();
    const snapshot = async () => {
      const [users, sessions, verifications, auditEvents, accounts, admin, graceNow] = await Promise.all([
        app.db.collection("users").countDocuments(),
        app.db.collection("sessions").countDocuments(),
        app.db.collection("verifications").countDocuments(),
        app.db.collection("auditEvents").countDocuments(),
        app.db.collection("accounts").countDocuments(),
        app.db.collection("users").findOne({ email: DEMO.admin.email }),
        app.db.collection("users").findOne({ email: DEMO.grace }),
      ]);
      return { users, sessions, verifications, auditEvents, accounts, admin, grace: graceNow };
    };
    const before = await snapshot();
    const mailsBefore = app.smtp.mails.length;
    const posts: [string, Record<string, string>][] = [
      ["/sign-up", { name: "Mallory", email: "mallory@example.com", password: "a long enough password" }],
      ["/sign-in", { email: DEMO.grace, password: DEMO.password }],
      ["/forgot-password", { email: DEMO.grace }],
      ["/account", { intent: "profile", name: "Renamed by another site", language: "ru" }],
      ["/language", { lang: "ru", redirectTo: "/" }],
      [`/admin/users/${graceId}`, { intent: "ban", banReason: "cross-site", banDays: "" }],
      [`/admin/users/${graceId}`, { intent: "set-role", role: "admin" }],
      ["/sign-out", {}],
    ];
    for (const [path, form] of posts) {
      for (const origin of ["https://evil.example", "null", `http://127.0.0.1:1${path.length}`]) {
        const response = await page.request.post(path, { headers: { origin }, form, maxRedirects: 0 });
        expect(response.status(), `${path} from ${origin}`).toBe(403);
        expect(response.headers()["set-cookie"], path).toBeUndefined();
        const html = await response.text();
        expect(html).toContain("<h1>Request refused</h1>");
        expect(html).toContain(
          "This form was sent from another website, so it was not processed. Go back to the page on this site and try again.",
        );
        expect(html).not.toMatch(/\bat \S+ \(|Error: |node_modules/);
      }
    }
    // Without any Origin (browsers always send one on POST), the same page — an action-only route too.
    const bare = await page.request.post("/sign-out", { form: {}, maxRedirects: 0 });
    expect(bare.status()).toBe(403);
    expect(await bare.text()).toContain("<h1>Request refused</h1>");
    expect(await snapshot()).toEqual(before);
    expect(app.smtp.mails.length).toBe(mailsBefore);
    // Still signed in: the sign-out above never ran.
    await page.goto("/account");
    await expectPath(page, "/account");

    const shown = await app.newPage();
    await shown.route("https://evil.example/form", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><html lang="en"><title>Win a prize</title><form method="post" action="${app.url}/forgot-password"><input name="email" value="${DEMO.grace}"><button>Claim</button></form></html>`,
      }),
    );
    await shown.goto("https://evil.example/form");
    await shown.getByRole("button", { name: "Claim" }).click();
    await expectText(heading(shown), "Request refused");
    await expectAccessible(shown);
    await screenshot(shown, "auth-cross-site-refused");
    expect(await app.db.collection("verifications").countDocuments()).toBe(before.verifications);

    // A link from another site is no attack: a signed-in admin who follows one gets the page.
    await page.route("https://evil.example/links", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><html lang="en"><title>Links</title><a href="${app.url}/admin">Admin</a></html>`,
      }),
    );
    await page.goto("https://evil.example/links");
    await page.getByRole("link", { name: "Admin" }).click();
    await expectPath(page, "/admin");
    await expectText(heading(page), "Administration");
  });

  test("the session token reaches neither the page nor the client bundle; no server secret is bundled", async () => {
    const page = await app.newPage();
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill(DEMO.barbara);
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectText(heading(page), /Welcome/);
    const cookie = (await page.context().cookies()).find((c) => c.name.endsWith("session_token"));
    expect(cookie?.httpOnly).toBe(true);
    const token = decodeURIComponent(cookie!.value).split(".")[0]!;
    expect(token.length).toBeGreaterThan(20);
    await page.goto("/account");
    expect(await page.content()).not.toContain(token);

    const assets = join(APP_DIR, "build/client/assets");
    for (const name of await readdir(assets)) {
      const code = await readFile(join(assets, name), "utf8");
      for (const needle of ["NOT-FOR-PRODUCTION", "TESSERA_SECRET", "MongoClient", "scrypt", "createAuth("]) {
        expect(code.includes(needle), `${needle} in ${name}`).toBe(false);
      }
    }
  });
});
