import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type AuthOptions, ERROR_CATALOGUE, type ErrorCode } from "@tessera/auth-core";
import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";
import { verificationIdOf } from "../../packages/auth-core/src/db/ids.ts";
import { PASSWORD, postJsonText, sendRaw } from "../security/helpers.ts";

/**
 * One trigger per catalogue entry reachable through the endpoints that exist: each sends the
 * request a client would send and asserts the status and exact `{ code, message }` the catalogue
 * gives. The last test makes every catalogue entry either triggered here or listed as unreachable
 * (with the reason), so a new entry cannot go untested unnoticed.
 */
type Overrides = Omit<Partial<AuthOptions>, "database">;
interface Answer {
  status: number;
  body: unknown;
}
interface Harness {
  t: TestAuth;
  /** Ada, signed up and signed in (session cookie held). */
  ada: TestBrowser;
}
interface Trigger {
  code: ErrorCode;
  options?: Overrides;
  run(h: Harness): Promise<Answer>;
}

const ADA = "ada@example.com";
const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
const raw = (res: { status: number; json: unknown }): Answer => ({ status: res.status, body: res.json });
const refuse = { before: () => false as const };

/** Has a verification mail sent to Ada and returns the token of its link. */
async function mailedVerificationToken(h: Harness): Promise<string> {
  await new TestBrowser(h.t.auth).post("/send-verification-email", { email: ADA });
  const text = h.t.outbox.latestTo(ADA)?.text ?? "";
  const link = /https?:\/\/\S+verify-email\S+/.exec(text)?.[0] ?? "";
  return new URL(link).searchParams.get("token") ?? "";
}

/** Ada's consecutive failed sign-ins, as the sign-in throttle stores them (one row per attempt). */
async function seedSignInFailures(t: TestAuth, count: number): Promise<void> {
  const user = await t.db.collection("users").findOne({ email: ADA });
  const now = t.now();
  const rows = Array.from({ length: count }, (_, i) => ({
    _id: verificationIdOf(`sign-in-attempt:${user?._id.toHexString()}:any:${i + 1}`),
    identifier: `sign-in-attempt:${user?._id.toHexString()}:any:${i + 1}`,
    value: "",
    expiresAt: new Date("9999-12-31T00:00:00.000Z"),
    createdAt: now,
    updatedAt: now,
  }));
  await t.db.collection("verifications").insertMany(rows);
}

const TRIGGERS: Trigger[] = [
  // Request hygiene
  { code: "NOT_FOUND", run: async ({ t }) => raw(await sendRaw(t.auth, "GET", "/nope")) },
  { code: "METHOD_NOT_ALLOWED", run: async ({ t }) => raw(await sendRaw(t.auth, "GET", "/sign-in/email")) },
  {
    code: "BODY_TOO_LARGE",
    run: async ({ t }) =>
      raw(await postJsonText(t.auth, "/sign-in/email", `"${"x".repeat(1024 * 1024 + 1)}"`)),
  },
  { code: "INVALID_JSON", run: async ({ t }) => raw(await postJsonText(t.auth, "/sign-in/email", "{")) },
  {
    code: "UNSUPPORTED_CONTENT_TYPE",
    run: async ({ t }) =>
      raw(
        await sendRaw(t.auth, "POST", "/sign-in/email", {
          headers: { "content-type": "text/plain" },
          body: "x",
        }),
      ),
  },
  {
    code: "TOO_MANY_REQUESTS",
    options: { rateLimit: { enabled: true, customRules: { "/ok": { window: 10, max: 1 } } } },
    run: async ({ t }) => {
      await sendRaw(t.auth, "GET", "/ok");
      return raw(await sendRaw(t.auth, "GET", "/ok"));
    },
  },
  {
    code: "INTERNAL_SERVER_ERROR",
    options: { hooks: { user: { update: { before: () => Promise.reject(new Error("boom")) } } } },
    run: ({ ada }) => ada.post("/update-user", { name: "Ada L." }),
  },
  // Session and general
  { code: "FAILED_TO_CREATE_SESSION", options: { hooks: { session: { create: refuse } } }, run: signInAda },
  {
    code: "SESSION_NOT_FOUND",
    run: ({ ada }) => ada.post("/revoke-session", { token: "A".repeat(32) }),
  },
  { code: "UNAUTHORIZED", run: ({ t }) => new TestBrowser(t.auth).post("/revoke-sessions") },
  {
    code: "SESSION_NOT_FRESH",
    options: { session: { freshAge: 3600 } },
    run: async ({ t, ada }) => {
      t.advance(7200);
      return ada.get("/list-sessions");
    },
  },
  {
    code: "INVALID_CALLBACK_URL",
    run: ({ t }) =>
      new TestBrowser(t.auth).post("/sign-in/email", {
        email: ADA,
        password: PASSWORD,
        callbackURL: "//evil.com",
      }),
  },
  {
    code: "INVALID_REDIRECT_URL",
    run: ({ t }) =>
      new TestBrowser(t.auth).post("/request-password-reset", { email: ADA, redirectTo: "https://evil.com" }),
  },
  {
    code: "INVALID_ERROR_CALLBACK_URL",
    run: ({ t }) =>
      new TestBrowser(t.auth).post("/sign-in/social", {
        provider: "github",
        errorCallbackURL: "https://evil.com/oops",
      }),
  },
  {
    code: "INVALID_NEW_USER_CALLBACK_URL",
    run: ({ t }) =>
      new TestBrowser(t.auth).post("/sign-in/social", {
        provider: "github",
        newUserCallbackURL: "//evil.com/welcome",
      }),
  },
  {
    code: "INVALID_ORIGIN",
    run: async ({ t, ada }) =>
      raw(
        await sendRaw(t.auth, "POST", "/sign-out", {
          headers: { cookie: ada.cookieHeader(), origin: "https://evil.com" },
        }),
      ),
  },
  {
    code: "VERIFICATION_EMAIL_NOT_ENABLED",
    options: { emailVerification: { enabled: false } },
    run: ({ ada }) => ada.post("/send-verification-email", { email: ADA }),
  },
  {
    code: "EMAIL_ALREADY_VERIFIED",
    run: async ({ t, ada }) => {
      await t.db.collection("users").updateOne({ email: ADA }, { $set: { emailVerified: true } });
      return ada.post("/send-verification-email", { email: ADA });
    },
  },
  {
    code: "EMAIL_MISMATCH",
    run: ({ ada }) => ada.post("/send-verification-email", { email: "someone@example.com" }),
  },
  // Verify-email token errors (JSON form: no callbackURL)
  {
    code: "TOKEN_EXPIRED",
    run: async (h) => {
      const token = await mailedVerificationToken(h);
      h.t.advance(3601);
      return new TestBrowser(h.t.auth).get(`/verify-email?token=${token}`);
    },
  },
  {
    code: "INVALID_VERIFICATION_TOKEN",
    run: ({ t }) => new TestBrowser(t.auth).get("/verify-email?token=not.a.jwt"),
  },
  {
    code: "VERIFICATION_USER_NOT_FOUND",
    run: async (h) => {
      const token = await mailedVerificationToken(h);
      await h.t.db.collection("users").deleteOne({ email: ADA });
      return new TestBrowser(h.t.auth).get(`/verify-email?token=${token}`);
    },
  },
  {
    code: "VERIFICATION_UNAUTHORIZED",
    options: { hooks: { user: { update: refuse } } },
    run: async (h) =>
      new TestBrowser(h.t.auth).get(`/verify-email?token=${await mailedVerificationToken(h)}`),
  },
  // Email sign-in
  { code: "EMAIL_PASSWORD_DISABLED", options: { emailAndPassword: { enabled: false } }, run: signInAda },
  {
    code: "INVALID_EMAIL",
    run: ({ t }) =>
      new TestBrowser(t.auth).post("/sign-in/email", { email: "not-an-email", password: PASSWORD }),
  },
  {
    code: "INVALID_EMAIL_OR_PASSWORD",
    run: ({ t }) =>
      new TestBrowser(t.auth).post("/sign-in/email", { email: ADA, password: "wrong password" }),
  },
  {
    code: "EMAIL_NOT_VERIFIED",
    options: { emailAndPassword: { requireEmailVerification: true } },
    run: signInAda,
  },
  // Passwords
  {
    code: "RESET_PASSWORD_DISABLED",
    options: { emailAndPassword: { resetPasswordEnabled: false } },
    run: ({ t }) => new TestBrowser(t.auth).post("/request-password-reset", { email: ADA }),
  },
  {
    code: "INVALID_TOKEN",
    run: ({ t }) => new TestBrowser(t.auth).post("/reset-password", { newPassword: PASSWORD, token: "nope" }),
  },
  {
    code: "PASSWORD_TOO_SHORT",
    run: ({ t }) => signUp(new TestBrowser(t.auth), { email: "new@example.com", password: "short" }),
  },
  {
    code: "PASSWORD_TOO_LONG",
    run: ({ t }) => signUp(new TestBrowser(t.auth), { email: "new@example.com", password: "p".repeat(129) }),
  },
  {
    code: "PASSWORD_COMPROMISED",
    run: ({ t }) => signUp(new TestBrowser(t.auth), { email: "new@example.com", password: "password123" }),
  },
  {
    code: "PASSWORD_CONTEXT_SPECIFIC",
    run: ({ t }) => signUp(new TestBrowser(t.auth), { email: "new.user@example.com", password: "New.User" }),
  },
  {
    code: "ACCOUNT_TEMPORARILY_LOCKED",
    // 10 consecutive failures just now: the next attempt waits 32 s (features/sign-in-throttle).
    run: async ({ t }) => {
      await seedSignInFailures(t, 10);
      return new TestBrowser(t.auth).post("/sign-in/email", { email: ADA, password: PASSWORD });
    },
  },
  {
    code: "SIGN_IN_LOCKED",
    // 100 consecutive failures, seeded: 100 real ones take an attacker 7.3 hours.
    run: async ({ t }) => {
      await seedSignInFailures(t, 100);
      return new TestBrowser(t.auth).post("/sign-in/email", { email: ADA, password: PASSWORD });
    },
  },
  {
    code: "CREDENTIAL_ACCOUNT_NOT_FOUND",
    run: async ({ t, ada }) => {
      await t.db.collection("accounts").deleteMany({});
      return ada.post("/change-password", { currentPassword: PASSWORD, newPassword: "another password" });
    },
  },
  {
    code: "INVALID_PASSWORD",
    run: ({ ada }) =>
      ada.post("/change-password", { currentPassword: "wrong password", newPassword: "another one" }),
  },
  {
    code: "PASSWORD_ALREADY_SET",
    // Server-only endpoint: reachable through auth.api only (over HTTP it does not exist).
    run: async ({ t, ada }) => {
      try {
        await t.auth.api.setPassword({
          body: { newPassword: "another password" },
          headers: { cookie: ada.cookieHeader() },
        });
        return { status: 200, body: null };
      } catch (error) {
        const e = error as { status: number; toJSON(): unknown };
        return { status: e.status, body: e.toJSON() };
      }
    },
  },
  // Deletion and email change
  {
    code: "SESSION_EXPIRED",
    options: { user: { deleteUser: { enabled: true } }, session: { freshAge: 3600 } },
    run: async ({ t, ada }) => {
      t.advance(7200);
      return ada.post("/delete-user", {});
    },
  },
  { code: "DELETE_USER_DISABLED", run: ({ ada }) => ada.post("/delete-user", {}) },
  {
    code: "DELETE_USER_REFUSED",
    options: { user: { deleteUser: { enabled: true } }, hooks: { user: { delete: refuse } } },
    run: ({ ada }) => ada.post("/delete-user", {}),
  },
  {
    code: "CHANGE_EMAIL_DISABLED",
    run: ({ ada }) => ada.post("/change-email", { newEmail: "new@example.com" }),
  },
  {
    code: "EMAIL_IS_THE_SAME",
    options: { user: { changeEmail: { enabled: true } } },
    run: ({ ada }) => ada.post("/change-email", { newEmail: "ADA@example.com" }),
  },
  {
    code: "EMAIL_CAN_NOT_BE_UPDATED",
    options: { user: { changeEmail: { enabled: true } } },
    run: async ({ t, ada }) => {
      await signUp(new TestBrowser(t.auth), { email: "bob@example.com", password: PASSWORD });
      return ada.post("/change-email", { newEmail: "bob@example.com" });
    },
  },
  {
    code: "USER_ALREADY_EXISTS",
    run: ({ t }) => signUp(new TestBrowser(t.auth), { email: ADA, password: PASSWORD }),
  },
  { code: "NO_FIELDS_TO_UPDATE", run: ({ ada }) => ada.post("/update-user", {}) },
  {
    code: "FAILED_TO_UPDATE_USER",
    options: { hooks: { user: { update: refuse } } },
    run: ({ ada }) => ada.post("/update-user", { name: "Ada L." }),
  },
  // Accounts
  {
    code: "UNABLE_TO_CREATE_ACCOUNT",
    options: { hooks: { account: { create: refuse } } },
    run: ({ t }) => signUp(new TestBrowser(t.auth), { email: "new@example.com", password: PASSWORD }),
  },
  // Webhooks (the worker off: nothing is delivered, no host is looked up)
  {
    code: "WEBHOOK_DELIVERY_NOT_FOUND",
    options: { webhooks: { enabled: true, worker: false } },
    run: async ({ ada }) => {
      const organization = await ada.post<{ id: string }>("/organization/create", {
        name: "Acme",
        slug: "acme",
      });
      const ref = { organizationId: organization.body.id };
      const created = await ada.post<{ endpoint: { id: string } }>("/webhooks/create", {
        ...ref,
        url: "https://hooks.example.com/tessera",
      });
      const endpointId = created.body.endpoint.id;
      return ada.post("/webhooks/replay", { ...ref, endpointId, deliveryId: "nope" });
    },
  },
];

function signInAda({ t }: Harness): Promise<Answer> {
  return new TestBrowser(t.auth).post("/sign-in/email", { email: ADA, password: PASSWORD });
}

/** Catalogue entries no existing endpoint can produce, and why. */
const UNREACHABLE: Partial<Record<ErrorCode, string>> = {
  FAILED_TO_GET_SESSION: "no endpoint throws it (a failed read is a 503 or 500)",
  SESSION_EXPIRED_REAUTHENTICATE: "no endpoint throws it yet",
  UNABLE_TO_CREATE_VERIFICATION:
    "needs a failing insert; an outage answers 503 (tests/security/database-outage)",
  SERVICE_UNAVAILABLE: "triggered in tests/security/database-outage.test.ts (needs a database outage)",
  VALIDATION_ERROR: "triggered throughout tests/security/injection.test.ts (carries an issues list)",
  FORBIDDEN_SERVER_ONLY: "server-only endpoints are absent from the router: HTTP answers NOT_FOUND",
  ACCOUNT_USER_ALREADY_EXISTS:
    "no endpoint throws it: linking answers account_already_linked_to_different_user",
  API_KEY_UPDATE_FAILED: "answered only after 64 lost claims in a row on one key (features/api-key/store.ts)",
  RESOURCE_ACCESS_UNAUTHORIZED:
    "no endpoint throws it: a signed-out caller gets UNAUTHORIZED before any permission check",
};

const freshTestAuth = useFreshTestAuth();

describe("each reachable catalogue entry, triggered over HTTP", () => {
  it.each(TRIGGERS.map((trigger) => [trigger.code, trigger] as const))("%s", async (code, trigger) => {
    const t = await freshTestAuth(trigger.options);
    const ada = new TestBrowser(t.auth);
    // Some triggers' options make this very sign-up fail (refusing hooks): the trigger then repeats it.
    await signUp(ada, { email: ADA, password: PASSWORD });
    const answer = await trigger.run({ t, ada });
    const { status, message } = ERROR_CATALOGUE[code];
    expect({ status: answer.status, body: answer.body }).toEqual({ status, body: { code, message } });
  });
});

/** Where feature tests live: each feature triggers its own entries with its own setup. */
const FEATURE_DIR = join(REPO_ROOT, "packages/auth-core/src/features");
/** The shared test support: helpers that name the codes their callers expect (two-factor ERR, …). */
const SUPPORT_DIR = join(REPO_ROOT, "tests/support");

/** The text of every test file of the features and of the shared test support (tests/support). */
function featureTestText(): string {
  const files = readdirSync(FEATURE_DIR, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => join(FEATURE_DIR, file));
  const support = readdirSync(SUPPORT_DIR, { encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => join(SUPPORT_DIR, file));
  return [...files, ...support].map((file) => readFileSync(file, "utf8")).join("\n");
}

describe("coverage of the catalogue", () => {
  it("triggers every entry here or in its feature's tests, or lists why it cannot be reached", () => {
    const triggered = new Set(TRIGGERS.map((trigger) => trigger.code));
    const featureTests = featureTestText();
    // A feature test names the code it expects as a string literal ("CODE"); none → untested.
    const missing = (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).filter(
      (code) =>
        !triggered.has(code) && UNREACHABLE[code] === undefined && !featureTests.includes(`"${code}"`),
    );
    expect(missing, "catalogue entries with neither a trigger nor a reason").toEqual([]);
    for (const code of triggered)
      expect(UNREACHABLE[code], `${code} is both triggered and unreachable`).toBeUndefined();
  });
});
