import type { AdminUser, ListUsersResult } from "@tessera/auth-core";
import { LANGUAGE_TAGS, LANGUAGES, type Language, languageOf } from "@tessera/auth-core/i18n";
import { Command, Option } from "commander";
import { usageError } from "../errors.ts";
import { confirmOrRefuse, contextOf, noteEmpty, parseCount, type RunContext, report } from "../kit.ts";
import { describeUserBriefly, resolveUser, resolveUserId, withOperator } from "../operator.ts";
import { type PasswordOptions, readPassword } from "../secrets-input.ts";
import { formatDate, formatTable } from "../table.ts";

/** Every users action goes through the core's admin endpoints as the operator `cli:<os user>`. */

export interface UsersListOptions {
  search?: string | undefined;
  searchField?: "email" | "name" | undefined;
  role?: string | undefined;
  banned?: boolean | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
  /** Every user matching, in one read (ignores --limit and --offset). */
  all?: boolean | undefined;
}

const PAGE = 100;

/** An empty list in the words of its filter: "No user matches “zzz”." rather than "No users.". */
function noUsersText(options: UsersListOptions): string {
  if (options.search !== undefined) return `No user matches “${options.search}”.`;
  if (options.role !== undefined) return `No user has the role “${options.role}”.`;
  if (options.banned) return "No banned users.";
  return "No users.";
}

export async function usersListAction(run: RunContext, options: UsersListOptions): Promise<ListUsersResult> {
  if (options.role !== undefined && options.banned)
    throw usageError("--role and --banned cannot be combined");
  const filter =
    options.role !== undefined
      ? { filterField: "role" as const, filterValue: options.role, filterOperator: "eq" as const }
      : options.banned
        ? { filterField: "banned" as const, filterValue: "true", filterOperator: "eq" as const }
        : {};
  const search =
    options.search !== undefined
      ? {
          searchValue: options.search,
          searchField: options.searchField ?? "email",
          searchOperator: "contains" as const,
        }
      : {};
  return withOperator(run, async (session) => {
    const query = { ...filter, ...search, sortBy: "createdAt" as const, sortDirection: "asc" as const };
    if (options.all) {
      const { listAllUsers } = await import("@tessera/auth-core/operator");
      const users = await listAllUsers(session.auth, query);
      return { users, total: users.length, limit: users.length, offset: 0 };
    }
    const limit = Math.min(options.limit ?? 50, PAGE);
    const { data } = await session.api.listUsers({
      query: { ...query, limit, offset: options.offset ?? 0 },
      headers: session.headers,
    });
    return data;
  });
}

export interface UserResult {
  user: AdminUser;
}

export async function usersGetAction(run: RunContext, ref: string): Promise<UserResult> {
  return withOperator(run, async (session) => {
    const id = await resolveUserId(session, ref);
    const { data } = await session.api.getUser({ query: { id }, headers: session.headers });
    return { user: data };
  });
}

export interface UsersCreateOptions extends PasswordOptions {
  name?: string | undefined;
  role?: string | undefined;
  verified?: boolean | undefined;
  /** The user's language for mails and pages (ENG, RUS, UKR, SPA, GERMAN, POL, FRA, TURKEY). */
  language?: Language | undefined;
}

/** --language: one of the eight codes or a BCP 47 tag of their languages (`pl`, `de-AT`), else a usage error. */
function parseLanguage(value: string): Language {
  const language = languageOf(value);
  if (!language)
    throw usageError(
      `--language must be one of ${LANGUAGES.join(", ")} or a tag of their languages (${Object.values(LANGUAGE_TAGS).join(", ")}), got ${value}`,
    );
  return language;
}

export async function usersCreateAction(
  run: RunContext,
  email: string,
  options: UsersCreateOptions,
): Promise<UserResult> {
  const password = await readPassword(run, options, false);
  return withOperator(run, async (session) => {
    const { data } = await session.api.createUser({
      body: {
        email,
        name: options.name ?? email.split("@")[0]!,
        ...(password === null ? {} : { password }),
        ...(options.role === undefined ? {} : { role: options.role }),
        ...(options.verified ? { data: { emailVerified: true } } : {}),
        ...(options.language === undefined ? {} : { language: options.language }),
      },
      headers: session.headers,
    });
    return { user: data.user };
  });
}

export interface UsersBanOptions {
  reason?: string | undefined;
  /** Seconds; without it the ban lasts until unban (or the app's default ban length). */
  expiresIn?: number | undefined;
  yes?: boolean | undefined;
}

export async function usersBanAction(
  run: RunContext,
  ref: string,
  options: UsersBanOptions,
): Promise<UserResult> {
  return withOperator(run, async (session) => {
    const target = await resolveUser(session, ref);
    const userId = target.id;
    await confirmOrRefuse(
      run,
      options.yes,
      `Ban ${describeUserBriefly(target)} and end every session of theirs?`,
    );
    const { data } = await session.api.banUser({
      body: {
        userId,
        ...(options.reason === undefined ? {} : { banReason: options.reason }),
        ...(options.expiresIn === undefined ? {} : { banExpiresIn: options.expiresIn }),
      },
      headers: session.headers,
    });
    return { user: data.user };
  });
}

export async function usersUnbanAction(run: RunContext, ref: string): Promise<UserResult> {
  return withOperator(run, async (session) => {
    const userId = await resolveUserId(session, ref);
    const { data } = await session.api.unbanUser({ body: { userId }, headers: session.headers });
    return { user: data.user };
  });
}

export async function usersSetRoleAction(run: RunContext, ref: string, role: string): Promise<UserResult> {
  return withOperator(run, async (session) => {
    const userId = await resolveUserId(session, ref);
    const { data } = await session.api.setRole({ body: { userId, role }, headers: session.headers });
    return { user: data.user };
  });
}

export interface UsersSetPasswordOptions extends PasswordOptions {
  yes?: boolean | undefined;
}

export interface DoneResult {
  success: true;
  userId: string;
}

/**
 * Sets a password chosen by the operator: as over HTTP, it signs nobody in until the user resets or
 * changes it, and the user's sessions end.
 */
export async function usersSetPasswordAction(
  run: RunContext,
  ref: string,
  options: UsersSetPasswordOptions,
): Promise<DoneResult> {
  const password = (await readPassword(run, options, true))!;
  return withOperator(run, async (session) => {
    const target = await resolveUser(session, ref);
    const userId = target.id;
    await confirmOrRefuse(
      run,
      options.yes,
      `Set a new password for ${describeUserBriefly(target)} and end their sessions?`,
    );
    await session.api.setUserPassword({ body: { userId, newPassword: password }, headers: session.headers });
    return { success: true, userId };
  });
}

export async function usersRevokeSessionsAction(
  run: RunContext,
  ref: string,
  options: { yes?: boolean | undefined },
): Promise<DoneResult> {
  return withOperator(run, async (session) => {
    const target = await resolveUser(session, ref);
    const userId = target.id;
    const { data } = await session.api.listUserSessions({ body: { userId }, headers: session.headers });
    const count = data.sessions.length;
    await confirmOrRefuse(
      run,
      options.yes,
      `End ${count} session${count === 1 ? "" : "s"} of ${describeUserBriefly(target)}?`,
    );
    await session.api.revokeUserSessions({ body: { userId }, headers: session.headers });
    return { success: true, userId };
  });
}

export async function usersRemoveAction(
  run: RunContext,
  ref: string,
  options: { yes?: boolean | undefined },
): Promise<DoneResult> {
  return withOperator(run, async (session) => {
    const target = await resolveUser(session, ref);
    const userId = target.id;
    await confirmOrRefuse(
      run,
      options.yes,
      `Remove ${describeUserBriefly(target)} and all their data for good?`,
    );
    await session.api.removeUser({ body: { userId }, headers: session.headers });
    return { success: true, userId };
  });
}

function userLines(run: RunContext, users: readonly AdminUser[]): string[] {
  return formatTable(
    run.io,
    ["ID", "EMAIL", "NAME", "ROLE", "BANNED", "CREATED"],
    users.map((user) => [
      user.id,
      user.email,
      user.name,
      user.role,
      user.banned ? `yes${user.banExpires ? ` until ${formatDate(user.banExpires)}` : ""}` : "no",
      formatDate(user.createdAt),
    ]),
  );
}

function describeUser(user: AdminUser): string[] {
  return [
    `id\t${user.id}`,
    `email\t${user.email}${user.emailVerified ? " (verified)" : ""}`,
    `name\t${user.name}`,
    `role\t${user.role}`,
    `banned\t${user.banned ? `yes${user.banReason ? ` (${user.banReason})` : ""}${user.banExpires ? ` until ${formatDate(user.banExpires)}` : ""}` : "no"}`,
    `created\t${formatDate(user.createdAt)}`,
  ];
}

const yesOption = () => new Option("-y, --yes", "do it without asking (needed without a terminal)");
const userArgument = "<user>";
const userHelp = "the user's email or id";

export const usersCommand = new Command("users")
  .description("list and administer users (as the operator cli:<os user>, recorded in the audit trail)")
  .addCommand(
    new Command("list")
      .description("list users (a table on a terminal, tab-separated otherwise)")
      .option("--search <text>", "email (or --search-field name) containing the text")
      .addOption(new Option("--search-field <field>", "where --search looks").choices(["email", "name"]))
      .option("--role <role>", "only users with this role")
      .option("--banned", "only banned users")
      .option("--limit <n>", "users per page (at most 100, default 50)", parseCount("--limit"))
      .option("--offset <n>", "skip this many users", parseCount("--offset"))
      .option("--all", "every page")
      .action(async (options: UsersListOptions, command: Command) => {
        const run = contextOf(command);
        const listed = await usersListAction(run, options);
        noteEmpty(
          run,
          listed.users.length,
          listed.total === 0
            ? noUsersText(options)
            : `No users from offset ${listed.offset} (${listed.total} in all).`,
        );
        report(run, listed, (data) => [
          ...userLines(run, data.users),
          ...(run.io.stdoutIsTTY && data.users.length > 0
            ? [`${data.users.length} of ${data.total} (offset ${data.offset})`]
            : []),
        ]);
      }),
  )
  .addCommand(
    new Command("get")
      .description("show one user")
      .argument(userArgument, userHelp)
      .action(async (ref: string, _options, command: Command) => {
        const run = contextOf(command);
        report(run, await usersGetAction(run, ref), (data) => describeUser(data.user));
      }),
  )
  .addCommand(
    new Command("create")
      .description("create a user (with a password, or none: they set it through a reset)")
      .argument("<email>")
      .option("--name <name>", "display name (default: the email's local part)")
      .option("--role <role>", "role(s), comma separated")
      .option(
        "--password <password>",
        "initial password (visible in the shell history: prefer --password-stdin)",
      )
      .option("--password-stdin", "read the password from the first line of stdin")
      .option("--verified", "mark the email as verified")
      .option(
        "--language <code>",
        `language of their mails and pages (${LANGUAGES.join(", ")})`,
        parseLanguage,
      )
      .action(async (email: string, options: UsersCreateOptions, command: Command) => {
        const run = contextOf(command);
        report(run, await usersCreateAction(run, email, options), (data) => [
          `created ${data.user.email} (${data.user.id})`,
        ]);
      }),
  )
  .addCommand(
    new Command("ban")
      .description("ban a user: every session of theirs ends at once")
      .argument(userArgument, userHelp)
      .option("--reason <text>", "shown to the user")
      .option("--expires-in <seconds>", "lift the ban after this many seconds", parseCount("--expires-in"))
      .addOption(yesOption())
      .action(async (ref: string, options: UsersBanOptions, command: Command) => {
        const run = contextOf(command);
        report(run, await usersBanAction(run, ref, options), (data) => [
          `banned ${data.user.email}${data.user.banExpires ? ` until ${formatDate(data.user.banExpires)}` : ""}; their sessions ended`,
        ]);
      }),
  )
  .addCommand(
    new Command("unban")
      .description("lift a user's ban")
      .argument(userArgument, userHelp)
      .action(async (ref: string, _options, command: Command) => {
        const run = contextOf(command);
        report(run, await usersUnbanAction(run, ref), (data) => [`unbanned ${data.user.email}`]);
      }),
  )
  .addCommand(
    new Command("set-role")
      .description("set a user's role(s), comma separated")
      .argument(userArgument, userHelp)
      .argument("<role>")
      .action(async (ref: string, role: string, _options, command: Command) => {
        const run = contextOf(command);
        report(run, await usersSetRoleAction(run, ref, role), (data) => [
          `${data.user.email} is now ${data.user.role}`,
        ]);
      }),
  )
  .addCommand(
    new Command("set-password")
      .description("set a password (the user must change it at next sign-in); their sessions end")
      .argument(userArgument, userHelp)
      .option("--password <password>", "the new password (visible in the shell history)")
      .option("--password-stdin", "read the password from the first line of stdin")
      .addOption(yesOption())
      .action(async (ref: string, options: UsersSetPasswordOptions, command: Command) => {
        const run = contextOf(command);
        report(run, await usersSetPasswordAction(run, ref, options), () => [`password set for ${ref}`]);
      }),
  )
  .addCommand(
    new Command("revoke-sessions")
      .description("end every session of a user")
      .argument(userArgument, userHelp)
      .addOption(yesOption())
      .action(async (ref: string, options: { yes?: boolean }, command: Command) => {
        const run = contextOf(command);
        report(run, await usersRevokeSessionsAction(run, ref, options), () => [
          `ended every session of ${ref}`,
        ]);
      }),
  )
  .addCommand(
    new Command("remove")
      .description("remove a user and all their data")
      .argument(userArgument, userHelp)
      .addOption(yesOption())
      .action(async (ref: string, options: { yes?: boolean }, command: Command) => {
        const run = contextOf(command);
        report(run, await usersRemoveAction(run, ref, options), () => [`removed ${ref}`]);
      }),
  );
