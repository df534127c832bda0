/**
 * The server the mail crash test kills (tests/mail/crash.test.ts): the standalone server on the
 * database named in its environment, its mails kept in the JSON Lines file TESSERA_MAIL_FILE (so
 * the test can read every link that went out). Prints its API URL on stdout once it listens.
 */
import { createDevOutbox } from "@tessera/auth-core";
import { startServer } from "@tessera/auth-core/server";

const server = await startServer({
  log: () => {},
  overrides: {
    rateLimit: { enabled: false },
    mailLimit: { enabled: false },
    // Only the request's own send: what a killed server left queued is the test's to find.
    mailQueue: { worker: false },
    mailer: createDevOutbox({ file: process.env.TESSERA_MAIL_FILE, limit: 1_000_000, print: () => {} }),
    user: { deleteUser: { enabled: true, sendDeleteAccountVerification: true } },
  },
});
process.stdout.write(`${server.url}\n`);
