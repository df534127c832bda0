import { describe, expect, it } from "vitest";
import { inviteFailedAndQueued, useOutboxSmtp } from "#test/mail-outbox.ts";
import { useFreshTestAuth } from "#test/test-auth.ts";
import { mailQueueAction, mailRetryAction } from "../../packages/cli/src/commands/mail.ts";
import { toKnownError } from "../../packages/cli/src/errors.ts";
import { testRun } from "./run-context.ts";

/** `tessera mail queue` and `tessera mail retry`: the outbox as the operator sees and mends it. */
const openOverSmtp = useOutboxSmtp(useFreshTestAuth());

describe("tessera mail", () => {
  it("queue lists queued and failed mails without bodies; retry queues a failed one again", async () => {
    const { t, smtp } = await openOverSmtp();
    await inviteFailedAndQueued(t, smtp);
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
