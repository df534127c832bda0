import type { GeneratedScimToken, ScimConnection } from "@tessera/auth-core/operator";
import { Command, Option } from "commander";
import { confirmOrRefuse, contextOf, noteEmpty, type RunContext, report } from "../kit.ts";
import { type OrganizationRecord, resolveOrganization, withOperator } from "../operator.ts";
import { formatDate, formatTable } from "../table.ts";

/**
 * `tessera orgs scim`: an organization's SCIM connections (docs/security.md "SCIM") through the
 * token endpoints' own service, as the operator `cli:<os user>`, each change audited. A token is
 * printed once, by `add`, with the base URL the directory is given. Exit codes as every command's:
 * 2 usage (a connection name the endpoint's schema refuses, remove without --yes and no terminal),
 * 3 not found (the organization, the connection).
 */

type OperatorModule = typeof import("@tessera/auth-core/operator");
type Organization = OrganizationRecord;

async function withScim<T>(
  run: RunContext,
  ref: string,
  work: (
    scim: ReturnType<OperatorModule["createOperatorScim"]>,
    org: Organization,
    baseUrl: string,
  ) => Promise<T>,
): Promise<T> {
  return withOperator(run, async (session) => {
    const { createOperatorScim } = await import("@tessera/auth-core/operator");
    const org = await resolveOrganization(session, ref);
    const baseUrl = `${session.auth.context.apiURL}/scim/v2`;
    return work(createOperatorScim(session.auth, session.actor), org, baseUrl);
  });
}

export function orgsScimListAction(run: RunContext, ref: string): Promise<ScimConnection[]> {
  return withScim(run, ref, (scim, org) => scim.list(org));
}

/** The token (shown here only) and the SCIM base URL to paste beside it. */
export function orgsScimAddAction(
  run: RunContext,
  ref: string,
  providerId: string,
): Promise<GeneratedScimToken & { baseUrl: string }> {
  return withScim(run, ref, async (scim, org, baseUrl) => ({
    ...(await scim.add(org, providerId)),
    baseUrl,
  }));
}

export function orgsScimRemoveAction(
  run: RunContext,
  ref: string,
  providerId: string,
  options: { yes?: boolean | undefined },
): Promise<{ providerId: string }> {
  return withScim(run, ref, async (scim, org) => {
    await confirmOrRefuse(
      run,
      options.yes,
      `Revoke the SCIM token ${providerId} of ${org.name} (${org.slug}), so its directory can no longer provision?`,
    );
    return scim.remove(org, providerId);
  });
}

const orgHelp = "the organization's slug or id";

export const orgsScimCommand = new Command("scim")
  .description("an organization's SCIM (directory sync) connections and their tokens")
  .addCommand(
    new Command("list")
      .description("the organization's SCIM connections (never their tokens)")
      .argument("<org>", orgHelp)
      .action(async (ref: string, _options, command: Command) => {
        const run = contextOf(command);
        const listed = await orgsScimListAction(run, ref);
        noteEmpty(run, listed.length, "No SCIM connections.");
        report(run, listed, (data) =>
          formatTable(
            run.io,
            ["PROVIDER", "ID", "CREATED"],
            data.map((row) => [row.providerId, row.id, formatDate(row.createdAt)]),
          ),
        );
      }),
  )
  .addCommand(
    new Command("add")
      .description("make a connection's token (an existing connection's is replaced); printed once")
      .argument("<org>", orgHelp)
      .argument("[provider-id]", "names the connection: letters, digits, . _ -", "default")
      .action(async (ref: string, providerId: string, _options, command: Command) => {
        const run = contextOf(command);
        report(run, await orgsScimAddAction(run, ref, providerId), (data) => [
          `SCIM connection ${data.providerId} of ${ref}: give the directory these two (the token is shown only now)`,
          `  SCIM base URL  ${data.baseUrl}`,
          `  Bearer token   ${data.scimToken}`,
        ]);
      }),
  )
  .addCommand(
    new Command("remove")
      .description("revoke a connection's token: the directory's next request is refused")
      .argument("<org>", orgHelp)
      .argument("<provider-id>")
      .addOption(new Option("-y, --yes", "do it without asking (needed without a terminal)"))
      .action(async (ref: string, providerId: string, options: { yes?: boolean }, command: Command) => {
        const run = contextOf(command);
        report(run, await orgsScimRemoveAction(run, ref, providerId, options), (data) => [
          `revoked ${data.providerId} of ${ref}`,
        ]);
      }),
  );
