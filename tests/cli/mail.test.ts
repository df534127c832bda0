import { createSmtpMailer } from "@tessera/auth-core";
import { afterEach, describe, expect, it } from "vitest";
import { type FaultySmtp, startFaultySmtp } from "#test/faulty-smtp.ts";
import { createOrganization, signIn } from "#test/organization.ts";
import { useFreshTestAuth } from "#test/test-auth.ts";
import { mailQueueAction, mailRetryAction } from "../../packages/cli/src/commands/mail.ts";
import { toKnownError } from "../../packages/cli/src/errors.ts";
import { testRun } from "./run-context.ts";

/** `tessera mail queue` and `tessera mail retry`: the outbox as the operator sees and mends it. */
const openAuth = useFreshTestAuth();
let smtp: FaultySmtp | null = null;
afterEach(async () => {
  await smtp?.close();
  smtp = null;
});

describe("tessera mail", () => {
  it("queue lists queued and failed mails without bodies; retry queues a failed one again", async () => {
    smtp = await startFaultySmtp();
    const t = await openAuth({
      mailer: createSmtpMailer({ url: smtp.url, from: "Tessera <no-reply@example.com>" }),
      mailQueue: { worker: false },
    });
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
    const run = () => testRun(t.db.databaseName);

    const queue = await mailQueueAction(run(), {});
    expect(queue.mails.map((mail) => [mail.to, mail.state, mail.kind])).toEqual([
      ["gone@example.com", "failed", "invitation"],
      ["later@example.com", "queued", "invitation"],
    ]);
    expect(queue.mails[0]?.lastError).toBe("550 5.1.1 No such mailbox");
    expect(JSON.stringify(queue)).not.toContain("accept-invitation");

    const failedId = queue.mails[0]!.id;
    expect(await mailRetryAction(run(), failedId, {})).toEqual({ requeued: 1 });
    expect(await t.db.collection("mails").findOne({ to: "gone@example.com" })).toMatchObject({
      state: "queued",
    });
    expect(await mailRetryAction(run(), undefined, { failed: true })).toEqual({ requeued: 0 });

    const unknown = await mailRetryAction(run(), "0123456789abcdef01234567", {}).catch(
      (error: unknown) => error,
    );
    expect(toKnownError(unknown)?.message).toBe(
      "no failed mail 0123456789abcdef01234567 that can still be sent",
    );
    const both = await mailRetryAction(run(), failedId, { failed: true }).catch((error: unknown) => error);
    expect(toKnownError(both)?.message).toBe("give a mail id or --failed, not both");
  });
});
