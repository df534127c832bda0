import type { AuthClient } from "@tessera/auth-core/client";
import { ObjectId } from "mongodb";
import { type Browser, type CDPSession, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addVirtualAuthenticator } from "#test/virtual-authenticator.ts";
import { type AppServer, bundlePage, startAppServer } from "./browser-page/app-server.ts";
import { freePort, type LiveServer, startLiveServer } from "./live-server.ts";

/**
 * The client's passkey methods in real Chromium (Debian's, through playwright-core) with its virtual
 * authenticator (#test/virtual-authenticator.ts: a CTAP2 platform authenticator that keeps
 * discoverable credentials and verifies the user), on a page at http://localhost (WebAuthn refuses
 * IP addresses as RP ids) that mounts the live server's auth.handler. The page shows the session
 * through useSession: after each sign-in and sign-out the test waits for what it shows, so the
 * session store's re-read is what it checks. Magic links and email codes go through the same page
 * and the server's outbox.
 */
let live: LiveServer;
let app: AppServer;
let browser: Browser;

beforeAll(async () => {
  const files = await bundlePage(new URL("./browser-page/passkey-app.ts", import.meta.url));
  const port = await freePort();
  const pageOrigin = `http://localhost:${port}`;
  live = await startLiveServer(
    {
      passkey: { rpID: "localhost", origin: pageOrigin },
      magicLink: { enabled: true },
      emailOTP: { enabled: true },
    },
    { TESSERA_TRUSTED_ORIGINS: pageOrigin },
  );
  app = await startAppServer(port, files, live.server.auth, "localhost");
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await live?.close();
});

interface TestPage {
  page: Page;
  cdp: CDPSession;
  authenticatorId: string;
  /** Paths of the page's scripts fetched so far. */
  scripts: string[];
  close(): Promise<void>;
}

/** A fresh browser profile on the page, with a virtual authenticator attached. */
async function openPage(): Promise<TestPage> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
  await page.goto(`${app.origin}/`);
  await shows(page, "signed out");
  return { page, cdp, authenticatorId, scripts, close: () => context.close() };
}

async function shows(page: Page, text: string): Promise<void> {
  await page.locator("#session", { hasText: text }).waitFor({ timeout: 15_000 });
}

type Auth = AuthClient;
/** Runs `body` in the page with its client (`window.auth`) and answers what it resolved to. */
function inPage<T, A>(page: Page, body: (auth: Auth, arg: A) => Promise<T>, arg?: A): Promise<T> {
  return page.evaluate(
    ([source, value]) => {
      const run = new Function(`return (${source})`)() as (auth: unknown, arg: unknown) => Promise<T>;
      return run((window as unknown as { auth: unknown }).auth, value);
    },
    [body.toString(), arg] as const,
  );
}

function passkeysOf(userId: string) {
  return live.db
    .collection("passkeys")
    .find({ userId: new ObjectId(userId) })
    .toArray();
}

/** The chunks a passkey method loads: the ceremonies and @simplewebauthn/browser (its esm/index.js). */
const PASSKEY_CHUNK = /^\/(passkey-ceremonies|esm)-\w+\.js$/;

const CANCELLED = {
  status: 0,
  code: "PASSKEY_CANCELLED",
  message: "The passkey request was cancelled or timed out",
};

describe("passkeys through the client in Chromium", () => {
  it("add a passkey, list it, sign out, sign in with it (useSession follows), rename it, delete it", async () => {
    const { page, scripts, close } = await openPage();
    try {
      const email = "ada@example.com";
      const signedUp = await inPage(
        page,
        (auth, email) => auth.signUp.email({ name: "Ada", email, password: "correct horse battery" }),
        email,
      );
      expect(signedUp.error).toBeNull();
      await shows(page, `signed in as ${email}`);
      // Nothing of the passkey code is loaded until a passkey method runs.
      expect(scripts.filter((path) => PASSKEY_CHUNK.test(path))).toEqual([]);

      const added = await inPage(page, (auth) => auth.passkey.addPasskey({ name: "Laptop" }));
      expect(added.error).toBeNull();
      expect(added.data).toMatchObject({ name: "Laptop", deviceType: "singleDevice", backedUp: false });
      expect(scripts.filter((path) => PASSKEY_CHUNK.test(path))).toHaveLength(2);
      const userId = signedUp.data!.user.id;
      const stored = await passkeysOf(userId);
      expect(stored.map((passkey) => passkey.name)).toEqual(["Laptop"]);

      const listed = await inPage(page, (auth) => auth.passkey.listUserPasskeys());
      expect(listed.data?.map((passkey) => [passkey.name, passkey.credentialID])).toEqual([
        ["Laptop", stored[0]!.credentialID],
      ]);

      expect((await inPage(page, (auth) => auth.signOut())).error).toBeNull();
      await shows(page, "signed out");
      const signedIn = await inPage(page, (auth) => auth.signIn.passkey());
      expect(signedIn.error).toBeNull();
      expect(signedIn.data).toMatchObject({ user: { id: userId, email } });
      await shows(page, `signed in as ${email}`);
      expect((await passkeysOf(userId))[0]!.lastUsedAt).toBeInstanceOf(Date);

      const id = listed.data![0]!.id;
      const renamed = await inPage(
        page,
        (auth, id) => auth.passkey.updatePasskey({ id, name: "Work laptop" }),
        id,
      );
      expect(renamed.data?.passkey.name).toBe("Work laptop");
      expect((await passkeysOf(userId))[0]!.name).toBe("Work laptop");
      const deleted = await inPage(page, (auth, id) => auth.passkey.deletePasskey({ id }), id);
      expect(deleted).toEqual({ data: { status: true }, error: null });
      expect(await passkeysOf(userId)).toEqual([]);
    } finally {
      await close();
    }
  }, 90_000);

  it("a second passkey on an authenticator that holds one of the account is refused by the browser: PASSKEY_ALREADY_REGISTERED", async () => {
    const { page, close } = await openPage();
    try {
      const signedUp = await inPage(page, (auth) =>
        auth.signUp.email({ name: "Bo", email: "bo@example.com", password: "correct horse battery" }),
      );
      await shows(page, "signed in as bo@example.com");
      expect((await inPage(page, (auth) => auth.passkey.addPasskey())).error).toBeNull();
      const again = await inPage(page, (auth) => auth.passkey.addPasskey({ name: "Again" }));
      expect(again).toEqual({
        data: null,
        error: {
          status: 400,
          code: "PASSKEY_ALREADY_REGISTERED",
          message: "This passkey is already registered",
        },
      });
      expect(await passkeysOf(signedUp.data!.user.id)).toHaveLength(1);
    } finally {
      await close();
    }
  }, 90_000);

  it("a cancelled ceremony (the user not verified) resolves PASSKEY_CANCELLED: nothing stored, nobody signed in", async () => {
    const { page, cdp, authenticatorId, close } = await openPage();
    try {
      const signedUp = await inPage(page, (auth) =>
        auth.signUp.email({ name: "Cy", email: "cy@example.com", password: "correct horse battery" }),
      );
      await shows(page, "signed in as cy@example.com");
      expect((await inPage(page, (auth) => auth.passkey.addPasskey())).error).toBeNull();
      await inPage(page, (auth) => auth.signOut());
      await shows(page, "signed out");

      await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: false });
      expect(await inPage(page, (auth) => auth.signIn.passkey())).toEqual({ data: null, error: CANCELLED });
      await shows(page, "signed out");
      const signUp = await inPage(page, (auth) => auth.signUp.passkey({ email: "new@example.com" }));
      expect(signUp).toEqual({ data: null, error: CANCELLED });
      expect(await live.db.collection("users").countDocuments({ email: "new@example.com" })).toBe(0);
      expect(await passkeysOf(signedUp.data!.user.id)).toHaveLength(1);
    } finally {
      await close();
    }
  }, 90_000);

  it("passkey-first sign-up: an account with a passkey and no password, signed in; later signed in by the passkey", async () => {
    const { page, close } = await openPage();
    try {
      const email = "dee@example.com";
      const created = await inPage(
        page,
        (auth, email) => auth.signUp.passkey({ email, name: "Dee", passkeyName: "Phone" }),
        email,
      );
      expect(created.error).toBeNull();
      expect(created.data).toMatchObject({
        name: "Phone",
        user: { email, name: "Dee", emailVerified: false },
      });
      await shows(page, `signed in as ${email}`);
      const userId = created.data!.user.id;
      expect(await live.db.collection("accounts").countDocuments({ userId: new ObjectId(userId) })).toBe(0);
      expect((await passkeysOf(userId)).map((passkey) => passkey.name)).toEqual(["Phone"]);

      await inPage(page, (auth) => auth.signOut());
      await shows(page, "signed out");
      expect((await inPage(page, (auth) => auth.signIn.passkey())).data).toMatchObject({
        user: { id: userId },
      });
      await shows(page, `signed in as ${email}`);
    } finally {
      await close();
    }
  }, 90_000);

  /** A signed-up user with a passkey on the page's authenticator, signed out again. */
  async function signedOutWithPasskey(page: Page, email: string): Promise<void> {
    await inPage(
      page,
      (auth, email) => auth.signUp.email({ name: "P", email, password: "correct horse battery" }),
      email,
    );
    await shows(page, `signed in as ${email}`);
    expect((await inPage(page, (auth) => auth.passkey.addPasskey())).error).toBeNull();
    await inPage(page, (auth) => auth.signOut());
    await shows(page, "signed out");
  }

  it("sign-in by autofill: the passkey offered in the username field signs in, and useSession follows", async () => {
    const { page, close } = await openPage();
    try {
      await signedOutWithPasskey(page, "eve@example.com");
      // The virtual authenticator picks the offered passkey as a user would in the field's list.
      const signedIn = await inPage(page, (auth) => auth.signIn.passkey({ autoFill: true }));
      expect(signedIn.data).toMatchObject({ user: { email: "eve@example.com" } });
      await shows(page, "signed in as eve@example.com");
    } finally {
      await close();
    }
  }, 90_000);

  it("a pending autofill request is aborted by a button sign-in: it resolves PASSKEY_ABORTED and the button's sign-in goes through", async () => {
    const { page, cdp, authenticatorId, close } = await openPage();
    try {
      await signedOutWithPasskey(page, "fin@example.com");
      // No user touches the authenticator: the conditional request waits in the field.
      await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: false });
      await page.evaluate(() => {
        const auth = (window as unknown as { auth: AuthClient }).auth;
        (window as unknown as { autofill: unknown }).autofill = auth.signIn.passkey({ autoFill: true });
      });
      await page.waitForTimeout(500);
      await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: true });
      const button = await inPage(page, (auth) => auth.signIn.passkey());
      expect(button.data).toMatchObject({ user: { email: "fin@example.com" } });
      const autofill = await page.evaluate(() => (window as unknown as { autofill: unknown }).autofill);
      expect(autofill).toEqual({
        data: null,
        error: {
          status: 0,
          code: "PASSKEY_ABORTED",
          message: "The passkey request was replaced by another one or aborted",
        },
      });
      await shows(page, "signed in as fin@example.com");
    } finally {
      await close();
    }
  }, 90_000);

  it("a call's signal cancels the ceremony it started: the pending autofill resolves PASSKEY_ABORTED, nobody signed in", async () => {
    const { page, cdp, authenticatorId, close } = await openPage();
    try {
      await signedOutWithPasskey(page, "gil@example.com");
      await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: false });
      await page.evaluate(() => {
        const scope = window as unknown as { auth: AuthClient; autofill: unknown; stop: AbortController };
        scope.stop = new AbortController();
        scope.autofill = scope.auth.signIn.passkey({ autoFill: true }, { signal: scope.stop.signal });
      });
      await page.waitForTimeout(500);
      await page.evaluate(() => (window as unknown as { stop: AbortController }).stop.abort());
      const autofill = await page.evaluate(() => {
        const pending = new Promise((resolve) => setTimeout(() => resolve("still pending"), 5000));
        return Promise.race([(window as unknown as { autofill: unknown }).autofill, pending]);
      });
      expect(autofill).toMatchObject({ data: null, error: { status: 0, code: "PASSKEY_ABORTED" } });
      await shows(page, "signed out");
    } finally {
      await close();
    }
  }, 90_000);
});

describe("magic links and email codes through the client in Chromium", () => {
  const mailedCode = (email: string) =>
    live.outbox.latestTo(email)?.text.match(/^\s*(\d{6})\s*$/m)?.[1] ?? "";

  it("a link's token signs in (after a scanner's GET, which spends nothing); a code signs in; useSession follows", async () => {
    const { page, close } = await openPage();
    try {
      const email = "fay@example.com";
      expect(await inPage(page, (auth, email) => auth.signIn.magicLink({ email }), email)).toEqual({
        data: { status: true },
        error: null,
      });
      const link = live.outbox.latestTo(email)?.text.match(/https?:\/\/\S*\/magic-link\/verify\?\S+/)?.[0];
      expect(link).toBeDefined();
      // A mail scanner opens the link first: a page, no session, the token still good.
      const scanned = await fetch(link!);
      expect(scanned.status).toBe(200);
      expect(scanned.headers.getSetCookie()).toEqual([]);
      const token = new URL(link!).searchParams.get("token")!;
      const signedIn = await inPage(page, (auth, token) => auth.magicLink.verify({ token }), token);
      expect(signedIn.data).toMatchObject({ user: { email, emailVerified: true } });
      await shows(page, `signed in as ${email}`);
      await inPage(page, (auth) => auth.signOut());
      await shows(page, "signed out");

      const sent = await inPage(
        page,
        (auth, email) => auth.emailOtp.sendVerificationOtp({ email, type: "sign-in" }),
        email,
      );
      expect(sent).toEqual({ data: { success: true }, error: null });
      const wrong = await inPage(
        page,
        (auth, email) => auth.signIn.emailOtp({ email, otp: "000000" }),
        email,
      );
      expect(wrong.error).toMatchObject({ status: 400, code: "INVALID_OTP" });
      const otp = mailedCode(email);
      const byCode = await inPage(page, (auth, input) => auth.signIn.emailOtp(input), { email, otp });
      expect(byCode.data).toMatchObject({ user: { email } });
      await shows(page, `signed in as ${email}`);
    } finally {
      await close();
    }
  }, 90_000);
});
