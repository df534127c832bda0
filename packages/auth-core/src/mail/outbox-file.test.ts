import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MailMessage } from "./index.ts";
import { createDevOutbox } from "./index.ts";

function createMessage(overrides: Partial<MailMessage> = {}): MailMessage {
  return {
    to: "ana@example.com",
    subject: "Verify your email for Acme",
    text: "Open https://acme.test/verify?token=t1",
    html: '<a href="https://acme.test/verify?token=t1">Verify</a>',
    kind: "verify-email",
    ...overrides,
  };
}

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "outbox-file-test-"));
  file = join(dir, "data", "outbox.jsonl");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("createDevOutbox with a file", () => {
  it("shows the mails of a previous run after a restart, with their time and every part", async () => {
    const sentAt = new Date("2030-01-02T03:04:05.678Z");
    const before = createDevOutbox({ print: () => {}, file, now: () => sentAt });
    await before.send(createMessage());
    await before.send(createMessage({ to: "bob@example.com", kind: "invitation", subject: "Join Acme" }));

    const after = createDevOutbox({ print: () => {}, file });
    expect(after.messages()).toEqual([
      { ...createMessage(), sentAt },
      { ...createMessage({ to: "bob@example.com", kind: "invitation", subject: "Join Acme" }), sentAt },
    ]);
    expect(after.latestTo("ANA@example.com")?.text).toBe("Open https://acme.test/verify?token=t1");
  });

  it("keeps the file readable by its owner only: mails carry sign-in links", async () => {
    await createDevOutbox({ print: () => {}, file }).send(createMessage());
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "data")).mode & 0o777).toBe(0o700);
  });

  it("keeps the most recent `limit` mails across restarts, and the file at most twice that long", async () => {
    for (let index = 0; index < 25; index++) {
      // A restart every few mails.
      const outbox = createDevOutbox({ print: () => {}, file, limit: 4 });
      for (let inRun = 0; inRun < 3; inRun++)
        await outbox.send(createMessage({ subject: `mail ${index * 3 + inRun}` }));
      const lines = readFileSync(file, "utf8").trimEnd().split("\n");
      expect(lines.length).toBeLessThan(8);
    }
    const restarted = createDevOutbox({ print: () => {}, file, limit: 4 });
    expect(restarted.messages().map((mail) => mail.subject)).toEqual([
      "mail 71",
      "mail 72",
      "mail 73",
      "mail 74",
    ]);
  });

  it("skips lines it cannot read (a crash mid-write, an edit) and keeps the others", async () => {
    await createDevOutbox({ print: () => {}, file }).send(createMessage({ subject: "kept" }));
    appendFileSync(file, '{"to":"x@example.com","subject":"cut sh');
    appendFileSync(file, "\n");
    appendFileSync(
      file,
      `${JSON.stringify({ ...createMessage(), kind: "no-such-kind", sentAt: "2030-01-01T00:00:00Z" })}\n`,
    );
    appendFileSync(file, `${JSON.stringify({ ...createMessage(), sentAt: "not a date" })}\n`);
    const restarted = createDevOutbox({ print: () => {}, file });
    await restarted.send(createMessage({ subject: "after" }));
    expect(restarted.messages().map((mail) => mail.subject)).toEqual(["kept", "after"]);
    expect(
      createDevOutbox({ print: () => {}, file })
        .messages()
        .map((mail) => mail.subject),
    ).toEqual(["kept", "after"]);
  });

  it("empties the file on clear", async () => {
    const outbox = createDevOutbox({ print: () => {}, file });
    await outbox.send(createMessage());
    outbox.clear();
    expect(createDevOutbox({ print: () => {}, file }).messages()).toEqual([]);
  });

  it("still prints and lists a mail it cannot write, and says why", async () => {
    writeFileSync(join(dir, "data"), "a file where the directory should be");
    const lines: string[] = [];
    const outbox = createDevOutbox({ print: (line) => lines.push(line), file });
    await outbox.send(createMessage());
    expect(outbox.messages()).toHaveLength(1);
    expect(lines.some((line) => line.startsWith(`[mail] could not keep the outbox in ${file}: `))).toBe(true);
    expect(lines).toContain("Subject: Verify your email for Acme");
  });
});
