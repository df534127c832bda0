/**
 * The server the events crash test kills (tests/events/crash.test.ts): the standalone server on the
 * database named in its environment; it prints its API URL on stdout once it listens. No top-level
 * await: the harness runs it from a CommonJS bundle (tests/support/crash-server.ts crashChildren).
 */
import { startServer } from "@tessera/auth-core/server";

void startServer({
  log: () => {},
  printMail: () => {},
  overrides: {
    rateLimit: { enabled: false },
    organization: { teams: { enabled: true, allowRemovingAllTeams: true }, organizationLimit: 1000 },
  },
}).then((server) => process.stdout.write(`${server.url}\n`));
