import { describe, expect, it } from "vitest";
import { useFreshTestAuth } from "#test/test-auth.ts";

const openAuth = useFreshTestAuth();

const message = {
  to: "ada@example.com",
  kind: "delete-account" as const,
  subject: "Confirm",
  text: "Open https://example.com/confirm",
  html: "<p>Confirm</p>",
};

/**
 * `queue.linkStored` (docs/architecture.md "Mail", issue 34): the link's token is stored after the
 * mail's row and before its send.
 */
describe("a mail queued before its link's token", () => {
  it("is sent once the token is stored, and its row exists before the token write runs", async () => {
    const t = await openAuth({ mailQueue: { worker: false } });
    let rowsWhenStored = -1;
    await t.auth.context.mailOutbox.queue(message, {
      expiresAt: new Date(t.now().getTime() + 3_600_000),
      linkStored: async () => {
        rowsWhenStored = await t.db.collection("mails").countDocuments({ to: message.to });
      },
    });
    await t.auth.mail.settle();
    expect(rowsWhenStored).toBe(1);
    expect(t.outbox.messages().map((mail) => mail.to)).toEqual([message.to]);
    expect(await t.db.collection("mails").findOne({ to: message.to })).toMatchObject({
      state: "sent",
      attempts: 1,
      text: null,
    });
  });

  it("is dropped, never sent, when its token could not be stored; the failure reaches the caller", async () => {
    const t = await openAuth({ mailQueue: { worker: false } });
    const queued = t.auth.context.mailOutbox.queue(message, {
      expiresAt: new Date(t.now().getTime() + 3_600_000),
      linkStored: () => Promise.reject(new Error("the token write failed")),
    });
    await expect(queued).rejects.toThrow("the token write failed");
    await t.auth.mail.settle();
    // Past this instance's lease: no worker picks it up either.
    t.advance(3600);
    await t.auth.mail.runPass();
    await t.auth.mail.settle();
    expect(t.outbox.messages()).toEqual([]);
    expect(await t.db.collection("mails").findOne({ to: message.to })).toMatchObject({
      state: "dropped",
      lastError: "link not stored",
      text: null,
      html: null,
      subject: null,
      lease: null,
    });
  });
});
