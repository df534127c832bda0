/**
 * The server the mail crash test kills (tests/mail/crash.test.ts): the standalone server on the
 * database named in its environment, each mail it sends appended to the JSON Lines file
 * TESSERA_MAIL_FILE with its message id (the outbox row it came from), so the test can read every
 * link that went out and which row sent it. Prints its API URL on stdout once it listens. No
 * top-level await: the harness may run it from a CommonJS bundle (tests/support/crash-server.ts).
 */
import { appendFileSync } from "node:fs";
import { startServer } from "@tessera/auth-core/server";

void startServer({
  log: () => {},
  overrides: {
    rateLimit: { enabled: false },
    mailLimit: { enabled: false },
    // Only the request's own send: what a killed server left queued is the test's to find.
    mailQueue: { worker: false },
    mailer: {
      async send({ kind, text, messageId }) {
        appendFileSync(process.env.TESSERA_MAIL_FILE!, `${JSON.stringify({ kind, text, messageId })}\n`);
      },
    },
    user: { deleteUser: { enabled: true, sendDeleteAccountVerification: true } },
    // Every sign-up is mailed its verification link; the people still sign in at once.
    emailVerification: { sendOnSignUp: true },
    organization: { invitationLimit: 100_000 },
  },
}).then((server) => process.stdout.write(`${server.url}\n`));
