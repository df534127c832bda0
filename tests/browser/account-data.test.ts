import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import {
  APP_DIR,
  DEMO,
  expectAccessible,
  expectPath,
  expectText,
  screenshot,
  useTestApp,
  waitText,
} from "./app-harness.ts";
import { signIn } from "./page-watch.ts";

const en = JSON.parse(readFileSync(join(APP_DIR, "app/locales/en.json"), "utf8"));
/** The page's English text of a code: the app's own words first, else the catalogue's. */
const problemText = (code: string): string => en.problems?.[code] ?? en.validation?.[code] ?? en.errors[code];

const app = useTestApp();

const userNamed = (email: string) => app.db.collection("users").findOne({ email });

describe("the account's own data", () => {
  test("the profile refuses an empty name next to the field and keeps the stored one", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.alan);
    await page.goto("/account");
    await page.getByLabel("Name", { exact: true }).fill("   ");
    await page.getByRole("button", { name: "Save" }).click();
    await expectText(page.locator("#field-name-error"), problemText("NAME_REQUIRED"));
    expect(await page.getByText("Saved.").count()).toBe(0);
    expect((await userNamed(DEMO.alan))?.name).toBe("Alan Turing");
    await expectAccessible(page);
    await screenshot(page, "account-empty-name");
  });

  test("a new API key comes with a curl command that answers the user's session, and a copy button", async () => {
    const page = await app.newPage();
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await signIn(page, DEMO.linus);
    await page.goto("/account/api-keys");
    await page.getByLabel("Name").fill("Laptop script");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = await waitText(page.getByTestId("new-api-key"));
    const command = await waitText(page.getByTestId("api-key-command"));
    expect(command).toBe(`curl -H "x-api-key: ${key}" ${app.url}/api/auth/get-session`);

    // The command as shown, run by a shell: the key alone signs the request in as Linus.
    const { stdout } = await promisify(execFile)("sh", ["-c", `${command} --silent --show-error`]);
    const answer = JSON.parse(stdout);
    expect(answer.user.email).toBe(DEMO.linus);

    await page.getByRole("button", { name: "Copy command" }).click();
    await expectText(page.getByText("Copied."), "Copied.");
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(command);
    await expectAccessible(page);
    await screenshot(page, "account-api-key-usage");
  });

  test("without the Clipboard API (an http page on a LAN address), the copy button still copies", async () => {
    const page = await app.newPage();
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await signIn(page, DEMO.linus);
    await page.addInitScript(
      "Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined })",
    );
    await page.goto("/account/api-keys");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = await waitText(page.getByTestId("new-api-key"));
    expect(await page.evaluate("typeof navigator.clipboard")).toBe("undefined");
    await page.getByRole("button", { name: "Copy key" }).click();
    await expectText(page.getByText("Copied."), "Copied.");
    const reader = await page.context().newPage();
    await reader.goto("/");
    expect(await reader.evaluate("navigator.clipboard.readText()")).toBe(key);
  });

  test("'Download my data' saves my-data-<date>.json with the user's data, answered private, no-store", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.barbara);
    await page.goto("/account");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download my data" }).click(),
    ]);
    const today = new Date().toISOString().slice(0, 10);
    expect(download.suggestedFilename()).toBe(`my-data-${today}.json`);
    const saved = JSON.parse(await readFile((await download.path()) as string, "utf8"));
    expect(saved.user.email).toBe(DEMO.barbara);
    expect(saved.memberships.map((m: { organization: { slug: string } }) => m.organization.slug)).toEqual([
      "globex",
    ]);
    expect(JSON.stringify(saved)).not.toMatch(/"(password|token|accessToken|refreshToken|secret|key)"\s*:/);

    const answer = await page.request.post(`${app.url}/account/export`, { headers: { origin: app.url } });
    expect(answer.status()).toBe(200);
    expect(answer.headers()["cache-control"]).toBe("private, no-store");
    expect(answer.headers()["content-disposition"]).toBe(`attachment; filename="my-data-${today}.json"`);
    expect(answer.headers()["content-type"]).toBe("application/json; charset=utf-8");

    // Another site's form cannot make the browser fetch it.
    const forged = await page.request.post(`${app.url}/account/export`, {
      headers: { origin: "https://evil.example" },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    expect(forged.headers()["content-disposition"]).toBeUndefined();
  });

  test("a session signed in long ago is asked to sign in again, then the download works", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.grace);
    const user = await userNamed(DEMO.grace);
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    await app.db
      .collection("sessions")
      .updateMany({ userId: user?._id }, { $set: { updatedAt: twoDaysAgo } });
    await page.goto("/account");
    await page.getByRole("button", { name: "Download my data" }).click();
    await expectPath(page, "/account");
    await expectText(page.locator("#your-data [role=alert]"), problemText("SESSION_NOT_FRESH"));
    await expectAccessible(page);
    await screenshot(page, "account-data-sign-in-again");

    await page.getByRole("button", { name: "Sign in again" }).click();
    await expectPath(page, "/sign-in");
    await page.getByLabel("Email").fill(DEMO.grace);
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectPath(page, "/account");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download my data" }).click(),
    ]);
    const saved = JSON.parse(await readFile((await download.path()) as string, "utf8"));
    expect(saved.user.email).toBe(DEMO.grace);
  });
});
