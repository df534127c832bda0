import type { AdminUser, CoreEndpoint, TypedApi } from "@tessera/auth-core";
import type { OpenedAuth } from "./connection.ts";
import { type CliError, notFound, usageError } from "./errors.ts";
import { operatorName, type RunContext, withAuth } from "./kit.ts";
import { VERSION } from "./version.ts";

type OperatorApi = TypedApi<CoreEndpoint>;

export interface OperatorSession extends OpenedAuth {
  /** `auth.api` with this terminal's operator (`cli:<os user>`) as the caller of every call. */
  api: OperatorApi;
  /** Headers every call sends: the audit trail's user agent. */
  headers: Headers;
  actor: string;
}

/**
 * Runs `work` with the core's operator API: the same admin endpoints, schemas and rules as the HTTP
 * admin area, recorded in the audit trail with the actor `cli:<os user>`.
 */
export async function withOperator<T>(
  run: RunContext,
  work: (session: OperatorSession) => Promise<T>,
): Promise<T> {
  return withAuth(run, async (opened) => {
    const { createOperatorApi } = await import("@tessera/auth-core/operator");
    const actor = operatorName(run.io);
    const api = createOperatorApi(opened.auth, actor);
    return work({ ...opened, api, actor, headers: new Headers({ "user-agent": `tessera-cli/${VERSION}` }) });
  });
}

/** An organization as the operator API reads it (by id or slug). */
export type OrganizationRecord = NonNullable<
  Awaited<
    ReturnType<
      ReturnType<typeof import("@tessera/auth-core/operator").createOperatorOrganizations>["findOrganization"]
    >
  >
>;

/**
 * An organization named by id or slug (`orgs … <org>`, `--org`), or exit 3 with a message that says
 * what was looked for and where the names are: every command that takes one answers alike.
 */
export async function resolveOrganization(
  session: OperatorSession,
  ref: string,
): Promise<OrganizationRecord> {
  const { createOperatorOrganizations } = await import("@tessera/auth-core/operator");
  const org = await createOperatorOrganizations(session.auth, session.actor).findOrganization(ref);
  if (!org) throw organizationNotFound(ref);
  return org;
}

/** Exit 3 for an organization id or slug that names none. */
export function organizationNotFound(ref: string): CliError {
  return notFound(
    "ORGANIZATION_NOT_FOUND",
    `no organization with the id or slug "${ref}" (\`tessera orgs list\` lists them)`,
  );
}

const ID = /^[0-9a-f]{24}$/i;

/** A user named by id (24 hex characters) or email: its id, or exit 3. */
export async function resolveUserId(session: OperatorSession, ref: string): Promise<string> {
  if (ID.test(ref)) return ref.toLowerCase();
  if (!ref.includes("@")) throw usageError(`"${ref}" is neither a user id nor an email`);
  const { data } = await session.api.listUsers({
    query: { filterField: "email", filterValue: ref.trim().toLowerCase(), filterOperator: "eq", limit: 1 },
    headers: session.headers,
  });
  const user = data.users[0];
  if (!user) throw notFound("USER_NOT_FOUND", `no user with the email ${ref}`);
  return user.id;
}

/**
 * A user named by id or email, read before anything is asked or changed: the prompt of a destructive
 * command names who it affects, and an unknown user is exit 3 without a question.
 */
export async function resolveUser(session: OperatorSession, ref: string): Promise<AdminUser> {
  const id = await resolveUserId(session, ref);
  const { data } = await session.api.getUser({ query: { id }, headers: session.headers });
  return data;
}

/** "Ada Lovelace <ada@example.com> (6b07…, role admin)": who a prompt is about. */
export function describeUserBriefly(user: AdminUser): string {
  return `${user.name ? `${user.name} ` : ""}<${user.email}> (${user.id}, role ${user.role})`;
}
