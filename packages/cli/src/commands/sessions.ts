import type { AdminSession } from "@tessera/auth-core";
import { Command, Option } from "commander";
import { notFound } from "../errors.ts";
import { confirmOrRefuse, contextOf, noteEmpty, type RunContext, report } from "../kit.ts";
import { describeUserBriefly, resolveUser, resolveUserId, withOperator } from "../operator.ts";
import { formatDate, formatTable } from "../table.ts";

export interface SessionsListResult {
  userId: string;
  sessions: AdminSession[];
}

/** `tessera sessions list --user <user>`: the user's live sessions (the admin endpoint's list). */
export async function sessionsListAction(run: RunContext, ref: string): Promise<SessionsListResult> {
  return withOperator(run, async (session) => {
    const userId = await resolveUserId(session, ref);
    const { data } = await session.api.listUserSessions({ body: { userId }, headers: session.headers });
    return { userId, sessions: data.sessions };
  });
}

export interface SessionsRevokeResult {
  success: true;
  sessionId: string;
}

/** `tessera sessions revoke <session id>`: ends one session (and what it minted, as over HTTP). */
export async function sessionsRevokeAction(
  run: RunContext,
  sessionId: string,
  options: { yes?: boolean | undefined },
): Promise<SessionsRevokeResult> {
  return withOperator(run, async (session) => {
    const { findSessionById } = await import("@tessera/auth-core/operator");
    const found = await findSessionById(session.auth, sessionId);
    if (!found) throw notFound("SESSION_NOT_FOUND", `no session ${sessionId}`);
    const owner = await resolveUser(session, found.userId);
    const where = [found.ipAddress, found.userAgent].filter(Boolean).join(", ");
    await confirmOrRefuse(
      run,
      options.yes,
      `End the session ${found.id} of ${describeUserBriefly(owner)} (started ${formatDate(found.createdAt)}${where ? `, ${where}` : ""})?`,
    );
    await session.api.revokeUserSession({ body: { sessionId }, headers: session.headers });
    return { success: true, sessionId };
  });
}

export const sessionsCommand = new Command("sessions")
  .description("a user's sessions")
  .addCommand(
    new Command("list")
      .description("list a user's sessions")
      .requiredOption("--user <user>", "the user's email or id")
      .action(async (options: { user: string }, command: Command) => {
        const run = contextOf(command);
        const listed = await sessionsListAction(run, options.user);
        noteEmpty(run, listed.sessions.length, `No sessions: ${options.user} is signed in nowhere.`);
        report(run, listed, (data) =>
          formatTable(
            run.io,
            ["ID", "CREATED", "EXPIRES", "IP", "USER AGENT", "IMPERSONATED BY"],
            data.sessions.map((row) => [
              row.id,
              formatDate(row.createdAt),
              formatDate(row.expiresAt),
              row.ipAddress ?? "-",
              row.userAgent ?? "-",
              row.impersonatedBy ?? "-",
            ]),
          ),
        );
      }),
  )
  .addCommand(
    new Command("revoke")
      .description("end one session")
      .argument("<session-id>")
      .addOption(new Option("-y, --yes", "do it without asking (needed without a terminal)"))
      .action(async (sessionId: string, options: { yes?: boolean }, command: Command) => {
        const run = contextOf(command);
        report(run, await sessionsRevokeAction(run, sessionId, options), () => [
          `ended session ${sessionId}`,
        ]);
      }),
  );
