import type { AddressInfo } from "node:net";
import { createServer as createNetServer } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { escapeHtml } from "./escape-html.ts";
import type { MailMessage } from "./index.ts";
import { createDevOutbox, createSmtpMailer } from "./index.ts";
import { renderMail } from "./templates/index.ts";
import type { Language } from "./templates/language.ts";

interface SmtpSink {
  port: number;
  received: ParsedMail[];
  close(): Promise<void>;
}

// A real SMTP server on a random port: the mail travels the same protocol path as in production.
async function startSmtpSink(): Promise<SmtpSink> {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// A port that was free a moment ago, so connecting to it is refused.
async function findClosedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function createMessage(overrides: Partial<MailMessage> = {}): MailMessage {
  return {
    to: "ana@example.com",
    subject: "Verify your email for Acme",
    text: "Open https://acme.test/verify?token=t1\n",
    html: '<p><a href="https://acme.test/verify?token=t1">Verify</a></p>',
    kind: "verify-email",
    ...overrides,
  };
}

describe("createSmtpMailer", () => {
  let sink: SmtpSink;
  beforeEach(async () => {
    sink = await startSmtpSink();
  });
  afterEach(async () => {
    await sink.close();
  });

  it("delivers a rendered mail over SMTP with both parts and the link", async () => {
    const mailer = createSmtpMailer({
      url: `smtp://127.0.0.1:${sink.port}`,
      from: "Acme <no-reply@acme.test>",
    });
    const url = "https://acme.test/api/auth/verify-email?token=abc.def&callbackURL=%2Fhome";
    const rendered = renderMail("verify-email", "ENG", { url, name: "Ana", appName: "Acme" });
    try {
      await mailer.send({ to: "ana@example.com", kind: "verify-email", ...rendered });
    } finally {
      mailer.close();
    }

    expect(sink.received).toHaveLength(1);
    const mail = sink.received[0]!;
    expect(mail.from?.text).toBe('"Acme" <no-reply@acme.test>');
    const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
    expect(to?.value[0]?.address).toBe("ana@example.com");
    expect(mail.subject).toBe("Verify your email for Acme");
    expect(mail.text).toContain("Hi Ana,");
    expect(mail.text).toContain(url);
    expect(mail.html).toContain(`<a href="${escapeHtml(url)}"`);
  });

  it("wraps the SMTP error when the server is down", async () => {
    const port = await findClosedPort();
    const mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: "no-reply@acme.test" });
    try {
      const error: unknown = await mailer.send(createMessage()).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe("Failed to send mail");
      expect((error as Error).cause).toBeInstanceOf(Error);
      expect(((error as Error).cause as Error).message).toContain("ECONNREFUSED");
    } finally {
      mailer.close();
    }
  });

  it("rejects a non-SMTP URL without echoing it", () => {
    expect(() => createSmtpMailer({ url: "https://user:secret@mail.test", from: "a@b.test" })).toThrow(
      "createSmtpMailer: options.url must start with smtp:// or smtps://",
    );
    expect(() => createSmtpMailer({ url: "not a url secret", from: "a@b.test" })).toThrow(
      /^createSmtpMailer: options.url is not a valid URL$/,
    );
  });
});

describe("createDevOutbox", () => {
  it("prints the recipient, subject and the text with its link", async () => {
    const lines: string[] = [];
    const outbox = createDevOutbox({ print: (line) => lines.push(line) });
    await outbox.send(createMessage());
    const printed = lines.join("\n");
    expect(printed).toContain("verify-email to ana@example.com");
    expect(printed).toContain("Subject: Verify your email for Acme");
    expect(printed).toContain("https://acme.test/verify?token=t1");
  });

  it("keeps only the most recent mails up to the limit, oldest first", async () => {
    const outbox = createDevOutbox({ print: () => {}, limit: 2 });
    await outbox.send(createMessage({ subject: "one" }));
    await outbox.send(createMessage({ subject: "two" }));
    await outbox.send(createMessage({ subject: "three" }));
    expect(outbox.messages().map((entry) => entry.subject)).toEqual(["two", "three"]);
  });

  it("keeps 100 mails by default", async () => {
    const outbox = createDevOutbox({ print: () => {} });
    for (let index = 0; index < 105; index++) {
      await outbox.send(createMessage({ subject: `mail ${index}` }));
    }
    expect(outbox.messages()).toHaveLength(100);
    expect(outbox.messages()[0]?.subject).toBe("mail 5");
  });

  it("returns the latest mail to an address, ignoring case, and null for strangers", async () => {
    const sentAt = new Date("2030-01-02T03:04:05Z");
    const outbox = createDevOutbox({ print: () => {}, now: () => sentAt });
    await outbox.send(createMessage({ subject: "first" }));
    await outbox.send(createMessage({ to: "bob@example.com", subject: "for bob" }));
    await outbox.send(createMessage({ subject: "second" }));
    expect(outbox.latestTo(" ANA@example.com ")).toMatchObject({ subject: "second", sentAt });
    expect(outbox.latestTo("carol@example.com")).toBeNull();
  });

  it("forgets everything on clear, and callers cannot mutate the kept list", async () => {
    const outbox = createDevOutbox({ print: () => {} });
    await outbox.send(createMessage());
    (outbox.messages() as unknown[]).length = 0;
    expect(outbox.messages()).toHaveLength(1);
    outbox.clear();
    expect(outbox.messages()).toEqual([]);
    expect(outbox.latestTo("ana@example.com")).toBeNull();
  });

  it("refuses a limit that is not a positive integer", () => {
    expect(() => createDevOutbox({ limit: 0 })).toThrow("createDevOutbox: options.limit");
  });
});

describe("renderMail", () => {
  it("escapes a script in the name and keeps it readable in the text part", () => {
    const mail = renderMail("verify-email", "ENG", {
      url: "https://acme.test/verify?token=t",
      name: "<script>alert(1)</script>",
      appName: "Acme",
    });
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("Hi &lt;script&gt;alert(1)&lt;/script&gt;,");
    expect(mail.text).toContain("Hi <script>alert(1)</script>,");
  });

  it("escapes quotes and tags in the link so they cannot leave the href attribute", () => {
    const url = 'https://acme.test/verify?token=t&callbackURL="><script>alert(1)</script>';
    const mail = renderMail("reset-password", "ENG", { url, appName: "Acme", expiresInMinutes: 60 });
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain(
      '<a href="https://acme.test/verify?token=t&amp;callbackURL=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"',
    );
    expect(mail.text).toContain(url);
  });

  it("refuses a link that is not http(s), since escaping would not stop it", () => {
    expect(() => renderMail("verify-email", "ENG", { url: "javascript:alert(1)", appName: "Acme" })).toThrow(
      "Mail link must use http or https",
    );
  });

  it("keeps user-chosen names out of the invitation's subject and escapes them in its body", () => {
    const mail = renderMail("invitation", "ENG", {
      url: "https://acme.test/accept-invitation?id=i1",
      organizationName: "Evil\r\nBcc: victim@example.com",
      inviterName: "<b>Eve</b>",
      role: "admin",
      appName: "Acme",
    });
    // The subject carried the inviter's and organization's names.
    expect(mail.subject).toBe("You have been invited to an organization on Acme");
    expect(mail.text).toContain("<b>Eve</b> invited you to join Evil\r\nBcc: victim@example.com on Acme");
    expect(mail.html).toContain("&lt;b&gt;Eve&lt;/b&gt; invited you");
    expect(mail.html).not.toContain("<b>Eve</b>");
  });

  it("puts the one-time code in the body but not in the subject", () => {
    const mail = renderMail("two-factor-otp", "ENG", {
      code: "123456",
      appName: "Acme",
      expiresInMinutes: 3,
    });
    expect(mail.subject).toBe("Your Acme sign-in code");
    expect(mail.text).toContain("123456");
    expect(mail.text).toContain("expires in 3 minutes");
    expect(mail.html).toContain("<strong>123456</strong>");
  });

  it("writes every kind as plain text with the app name", () => {
    const url = "https://acme.test/x";
    const mails = [
      renderMail("change-email", "ENG", { url, newEmail: "new@example.com", appName: "Acme" }),
      renderMail("delete-account", "ENG", { url, appName: "Acme", expiresInHours: 1 }),
      renderMail("reset-password", "ENG", { url, name: "Ana", appName: "Acme", expiresInMinutes: 1 }),
    ];
    expect(mails[0]?.text).toContain("new@example.com");
    expect(mails[1]?.text).toContain("expires in 1 hour.");
    expect(mails[2]?.text).toContain("expires in 1 minute.");
    for (const mail of mails) {
      expect(mail.text).toContain(url);
      expect(mail.text).toContain("— Acme");
    }
  });

  it("tells the replaced address where the account went, with no link to follow, and escapes it in HTML", () => {
    const mail = renderMail("email-changed", "ENG", { newEmail: "eve+<b>@evil.example", appName: "Acme" });
    expect(mail.subject).toBe("Your Acme email address was changed");
    expect(mail.text).toContain("was changed to eve+<b>@evil.example.");
    expect(mail.text).toContain("— Acme");
    expect(mail.html).toContain("eve+&lt;b&gt;@evil.example");
    expect(mail.html).not.toContain("<b>@");
    expect(mail.html).not.toContain("<a ");
    const unnamed = renderMail("email-changed", "ENG", { appName: "Acme" });
    expect(unnamed.text).toContain("was changed to another address.");
  });

  it("falls back to English for an unknown language, or none", () => {
    const data = { url: "https://acme.test/verify?token=t", appName: "Acme" };
    const english = renderMail("verify-email", "ENG", data);
    expect(renderMail("verify-email", "KLINGON" as Language, data)).toEqual(english);
    expect(renderMail("verify-email", "constructor" as Language, data)).toEqual(english);
    expect(renderMail("verify-email", null, data)).toEqual(english);
  });
});

describe("escapeHtml", () => {
  it("escapes the five characters that matter in content and attributes", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
  });
});
