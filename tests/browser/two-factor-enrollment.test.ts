import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import {
  APP_DIR,
  DEMO,
  expectAccessible,
  expectText,
  screenshot,
  totpNow,
  useTestApp,
  waitText,
} from "./app-harness.ts";
import { signIn } from "./page-watch.ts";

const en = JSON.parse(readFileSync(join(APP_DIR, "app/locales/en.json"), "utf8"));
/** The page's English text of a catalogue code: the app's own words first, else the catalogue's. */
const errorText = (code: string): string => en.problems?.[code] ?? en.errors[code];

const app = useTestApp();

interface ShownSetUp {
  secret: string;
  qrSrc: string;
  backupCodes: string[];
}

async function readSetUp(page: Page): Promise<ShownSetUp> {
  return {
    secret: await waitText(page.getByTestId("totp-secret")),
    qrSrc:
      (await page.getByRole("img", { name: "QR code for your authenticator app" }).getAttribute("src")) ?? "",
    backupCodes: await page.getByRole("list", { name: "Backup codes" }).locator("li").allInnerTexts(),
  };
}

/** A six-digit code no step of the ±1-step window accepts now. */
async function wrongCode(secret: string): Promise<string> {
  const accepted = new Set(
    await Promise.all([-30_000, 0, 30_000].map((shift) => totpNow(secret, Date.now() + shift))),
  );
  for (let n = 123456; ; n++) if (!accepted.has(String(n))) return String(n);
}

async function twoFactorState(email: string) {
  const user = await app.db.collection("users").findOne({ email });
  const factor = await app.db.collection("twoFactors").findOne({ userId: user?._id });
  return { enabled: user?.twoFactorEnabled === true, pending: factor ? factor.verified === false : null };
}

describe("setting up two-factor in the account", () => {
  test("a mistyped code keeps the same QR code, secret and backup codes with the error; a reload too; the right code turns it on", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.linus);
    await page.goto("/account/two-factor");
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Set up two-factor" }).click();
    const shown = await readSetUp(page);
    expect(shown.secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(shown.qrSrc).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(shown.backupCodes).toHaveLength(10);
    // Kept by the app, never in the address bar, and out of the page's script's reach.
    expect(page.url()).not.toContain(shown.secret);
    const kept = (await page.context().cookies()).find((c) => c.name === "tessera-demo.two-factor-setup");
    expect(kept?.httpOnly).toBe(true);
    expect(kept?.value).not.toContain(shown.secret);

    await page.getByLabel("Code from the app").fill(await wrongCode(shown.secret));
    await page.getByRole("button", { name: "Turn on two-factor" }).click();
    await expectText(page.locator("#field-code-error"), errorText("INVALID_CODE"));
    expect(await readSetUp(page)).toEqual(shown);
    expect(await page.getByRole("button", { name: "Cancel set-up" }).count()).toBe(1);
    expect(await twoFactorState(DEMO.linus)).toEqual({ enabled: false, pending: true });
    await screenshot(page, "two-factor-wrong-code");

    await page.reload();
    expect(await readSetUp(page)).toEqual(shown);
    await expectAccessible(page);

    await page.getByLabel("Code from the app").fill(await totpNow(shown.secret));
    await page.getByRole("button", { name: "Turn on two-factor" }).click();
    await expectText(page.getByRole("status"), "Two-factor authentication is now on.");
    expect(await page.getByTestId("totp-secret").count()).toBe(0);
    expect(await twoFactorState(DEMO.linus)).toEqual({ enabled: true, pending: false });
    const left = (await page.context().cookies()).find((c) => c.name === "tessera-demo.two-factor-setup");
    expect(left).toBeUndefined();
  });

  test("Cancel (JavaScript off) forgets the set-up: the page offers a new one and two-factor stays off", async () => {
    const page = await app.newPage({ javaScript: false });
    await signIn(page, DEMO.barbara);
    await page.goto("/account/two-factor");
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Set up two-factor" }).click();
    const shown = await readSetUp(page);
    await page.getByLabel("Code from the app").fill(await wrongCode(shown.secret));
    await page.getByRole("button", { name: "Turn on two-factor" }).click();
    await expectText(page.locator("#field-code-error"), errorText("INVALID_CODE"));
    expect(await readSetUp(page)).toEqual(shown);

    await page.getByRole("button", { name: "Cancel set-up" }).click();
    await expectText(
      page.getByRole("status"),
      "Set-up cancelled: two-factor authentication stays off. You can delete this account's entry from your authenticator app.",
    );
    expect(await page.getByTestId("totp-secret").count()).toBe(0);
    await expectText(page.getByRole("button", { name: "Set up two-factor" }), "Set up two-factor");
    expect((await twoFactorState(DEMO.barbara)).enabled).toBe(false);
    await screenshot(page, "two-factor-cancelled");
    // A new set-up is a new secret: the cancelled one is not shown again.
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Set up two-factor" }).click();
    expect((await readSetUp(page)).secret).not.toBe(shown.secret);
  });

  test("the kept set-up belongs to its session: another sign-in of the same user does not see it", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.grace);
    await page.goto("/account/two-factor");
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Set up two-factor" }).click();
    await readSetUp(page);
    const cookies = await page.context().cookies();
    const kept = cookies.find((c) => c.name === "tessera-demo.two-factor-setup")!;

    const other = await app.newPage();
    await signIn(other, DEMO.grace);
    await other.context().addCookies([{ ...kept }]);
    await other.goto("/account/two-factor");
    await expectText(other.getByRole("button", { name: "Set up two-factor" }), "Set up two-factor");
    expect(await other.getByTestId("totp-secret").count()).toBe(0);
  });
});
