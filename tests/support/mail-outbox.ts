import { createSmtpMailer } from "@tessera/auth-core";
import { afterEach } from "vitest";
import { type FaultySmtp, startFaultySmtp } from "./faulty-smtp.ts";
import { createOrganization, type SignedIn, signIn } from "./organization.ts";
import type { Overrides, TestAuth } from "./test-auth.ts";

/**
 * The mail outbox's fixture (features/mail-outbox tests, tests/cli/mail.test.ts): an auth mailing
 * through a FaultySmtp, its worker driven by the test (`t.auth.mail.runPass()`), the sink closed
 * after each test.
 */
export function useOutboxSmtp(openAuth: (overrides?: Overrides) => Promise<TestAuth>) {
  let smtp: FaultySmtp | null = null;
  afterEach(async () => {
    await smtp?.close();
    smtp = null;
  });
  return async (overrides: Overrides = {}): Promise<{ t: TestAuth; smtp: FaultySmtp }> => {
    smtp = await startFaultySmtp();
    const t = await openAuth({
      mailer: createSmtpMailer({ url: smtp.url, from: "Tessera <no-reply@example.com>" }),
      mailQueue: { worker: false },
      ...overrides,
    });
    return { t, smtp };
  };
}

/**
 * An owner of "acme" who invited gone@example.com (refused by the server with 550: failed) and,
 * with the server down, later@example.com (queued).
 */
export async function inviteFailedAndQueued(
  t: TestAuth,
  smtp: FaultySmtp,
): Promise<{ owner: SignedIn; organizationId: string }> {
  const owner = await signIn(t, "owner");
  const organizationId = await createOrganization(owner, "acme");
  const invite = (email: string) =>
    owner.browser.post("/organization/invite-member", { organizationId, email, role: "member" });
  smtp.rejectRecipient("gone@example.com", "5.1.1 No such mailbox");
  await invite("gone@example.com");
  await t.auth.mail.settle();
  await smtp.goDown();
  await invite("later@example.com");
  await t.auth.mail.settle();
  return { owner, organizationId };
}
