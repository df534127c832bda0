import { beforeEach, describe, expect, it } from "vitest";
import { type CallResult, signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";
import { expectCatalogueError, PASSWORD, snapshotDatabase } from "./helpers.ts";
import { EVIL_CALLBACKS } from "./redirect-payloads.ts";

/**
 * Matrix G across every endpoint with a callback-type field (sign-in and sign-up are in
 * open-redirect.test.ts). The GET links are sent with a VALID token, so a bypass would do real harm
 * (verify, delete, or hand the reset token to the evil origin): each must answer 403 with the
 * field's docs/decisions/ message, use nothing, write nothing and mail nothing.
 */
const ADA = "ada@example.com";
const { t, openAuth } = useTestAuthPerTest();
let ada: TestBrowser;
beforeEach(async () => {
  await openAuth({
    trustedOrigins: ["https://app.example.com"],
    user: {
      changeEmail: { enabled: true },
      deleteUser: { enabled: true, sendDeleteAccountVerification: true },
    },
  });
  ada = new TestBrowser(t.auth);
  await signUp(ada, { email: ADA, password: PASSWORD });
});

/** The first link of the latest mail to Ada whose path contains `path`. */
function mailedLink(path: string): URL {
  const text = t.outbox.latestTo(ADA)?.text ?? "";
  const link = text.match(/https?:\/\/\S+/g)?.find((url) => url.includes(path));
  if (!link) throw new Error(`no ${path} link mailed to ${ADA}`);
  return new URL(link);
}

interface CallbackField {
  name: string;
  field: "callbackURL" | "redirectTo";
  /** Mints whatever valid token the request needs; runs once before the payloads. */
  prepare?: () => Promise<string>;
  send(url: string, token: string): Promise<CallResult>;
}

const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

const FIELDS: CallbackField[] = [
  {
    name: "POST /send-verification-email callbackURL",
    field: "callbackURL",
    send: (url) => ada.post("/send-verification-email", { email: ADA, callbackURL: url }),
  },
  {
    name: "GET /verify-email callbackURL",
    field: "callbackURL",
    prepare: async () => {
      await ada.post("/send-verification-email", { email: ADA });
      return mailedLink("/verify-email").searchParams.get("token")!;
    },
    send: (url, token) => new TestBrowser(t.auth).get(`/verify-email?${query({ token, callbackURL: url })}`),
  },
  {
    name: "POST /change-email callbackURL",
    field: "callbackURL",
    send: (url) => ada.post("/change-email", { newEmail: "new@example.com", callbackURL: url }),
  },
  {
    name: "POST /delete-user callbackURL",
    field: "callbackURL",
    send: (url) => ada.post("/delete-user", { callbackURL: url }),
  },
  {
    name: "GET /delete-user/callback callbackURL",
    field: "callbackURL",
    prepare: async () => {
      await ada.post("/delete-user", {});
      return mailedLink("/delete-user/callback").searchParams.get("token")!;
    },
    send: (url, token) => ada.get(`/delete-user/callback?${query({ token, callbackURL: url })}`),
  },
  {
    name: "POST /request-password-reset redirectTo",
    field: "redirectTo",
    send: (url) => new TestBrowser(t.auth).post("/request-password-reset", { email: ADA, redirectTo: url }),
  },
  {
    name: "POST /forget-password redirectTo",
    field: "redirectTo",
    send: (url) => new TestBrowser(t.auth).post("/forget-password", { email: ADA, redirectTo: url }),
  },
  {
    name: "GET /reset-password/:token callbackURL",
    field: "callbackURL",
    prepare: async () => {
      await new TestBrowser(t.auth).post("/request-password-reset", { email: ADA });
      return mailedLink("/reset-password/").pathname.split("/").pop()!;
    },
    send: (url, token) =>
      new TestBrowser(t.auth).get(`/reset-password/${token}?${query({ callbackURL: url })}`),
  },
];

const MESSAGES = {
  callbackURL: { code: "INVALID_CALLBACK_URL", message: "Invalid callbackURL" },
  redirectTo: { code: "INVALID_REDIRECT_URL", message: "Invalid redirectURL" },
} as const;

describe.each(FIELDS.map((field) => [field.name, field] as const))("%s", (_name, field) => {
  it("refuses every evil payload with 403 and the field's message; nothing used, written or mailed", async () => {
    const token = (await field.prepare?.()) ?? "";
    const { code, message } = MESSAGES[field.field];
    // Each refusal leaves the database and the outbox as they were before the first one.
    const before = await snapshotDatabase(t.db);
    const mails = t.outbox.messages().length;
    for (const url of EVIL_CALLBACKS) {
      const res = await field.send(url, token);
      try {
        expectCatalogueError(res, 403, code, message);
        expect(res.headers.get("location")).toBeNull();
        expect(await snapshotDatabase(t.db)).toBe(before);
        expect(t.outbox.messages()).toHaveLength(mails);
      } catch (error) {
        throw new Error(`payload ${JSON.stringify(url)}: ${(error as Error).message}`);
      }
    }
  });

  it.each(["/dashboard?tab=1#x", "https://app.example.com/cb"])("accepts the trusted %s", async (url) => {
    const token = (await field.prepare?.()) ?? "";
    const res = await field.send(url, token);
    expect(res.status).not.toBe(403);
    expect(res.status).toBeLessThan(400);
    const location = res.headers.get("location");
    if (location !== null) expect(location.startsWith(url.split(/[?#]/)[0]!)).toBe(true);
  });
});
