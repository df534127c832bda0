/**
 * The server the events crash test kills (tests/events/crash.test.ts): the standalone server on the
 * database named in its environment; it prints its API URL on stdout once it listens.
 */
import { startServer } from "@tessera/auth-core/server";

const server = await startServer({
  log: () => {},
  printMail: () => {},
  overrides: {
    rateLimit: { enabled: false },
    organization: { teams: { enabled: true, allowRemovingAllTeams: true }, organizationLimit: 1000 },
  },
});
process.stdout.write(`${server.url}\n`);
