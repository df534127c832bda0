import type { OrganizationDomain } from "@tessera/auth-core/operator";
import { Command, Option } from "commander";
import { confirmOrRefuse, contextOf, noteEmpty, type RunContext, report } from "../kit.ts";
import { type OrganizationRecord, resolveOrganization, withOperator } from "../operator.ts";
import { formatDate, formatTable } from "../table.ts";

/**
 * `tessera orgs domains`: an organization's verified domains through the core's own services
 * (docs/security.md "Verified domains"), as the operator `cli:<os user>`, each change audited.
 * Refusals exit as every command's do: 3 not found (the organization, the domain, the published
 * proof), 4 refused by a rule (a consumer domain, one another organization verified).
 */

async function withDomains<T>(
  run: RunContext,
  ref: string,
  work: (
    domains: ReturnType<typeof import("@tessera/auth-core/operator").createOperatorDomains>,
    org: OrganizationRecord,
  ) => Promise<T>,
): Promise<T> {
  return withOperator(run, async (session) => {
    const { createOperatorDomains } = await import("@tessera/auth-core/operator");
    const org = await resolveOrganization(session, ref);
    return work(createOperatorDomains(session.auth, session.actor), org);
  });
}

export function orgsDomainsAddAction(
  run: RunContext,
  ref: string,
  domain: string,
): Promise<OrganizationDomain> {
  return withDomains(run, ref, (domains, org) => domains.add(org, domain));
}

export function orgsDomainsVerifyAction(
  run: RunContext,
  ref: string,
  domain: string,
): Promise<OrganizationDomain> {
  return withDomains(run, ref, (domains, org) => domains.verify(org, domain));
}

export function orgsDomainsListAction(run: RunContext, ref: string): Promise<OrganizationDomain[]> {
  return withDomains(run, ref, (domains, org) => domains.list(org));
}

export function orgsDomainsRemoveAction(
  run: RunContext,
  ref: string,
  domain: string,
  options: { yes?: boolean | undefined },
): Promise<{ domain: string }> {
  return withDomains(run, ref, async (domains, org) => {
    await confirmOrRefuse(
      run,
      options.yes,
      `Remove ${domain} from ${org.name} (${org.slug})? Its auto-join and require-SSO end with it.`,
    );
    return domains.remove(org, domain);
  });
}

/** What to publish for a pending claim, or how the domain was proven. */
function describeDomain(domain: OrganizationDomain): string[] {
  if (!domain.proof) return [`${domain.domain} is verified (${domain.method})`];
  return [
    `${domain.domain} is claimed, pending until ${formatDate(domain.expiresAt!)}. Publish one of:`,
    `  DNS TXT record  ${domain.proof.txtName}  "${domain.proof.txtValue}"`,
    `  HTTPS file      ${domain.proof.fileURL}  containing ${domain.proof.fileBody}`,
    `then run: tessera orgs domains verify <org> ${domain.domain}`,
  ];
}

const orgHelp = "the organization's slug or id";

export const orgsDomainsCommand = new Command("domains")
  .description("an organization's verified domains (auto-join, require SSO)")
  .addCommand(
    new Command("add")
      .description("claim a domain; prints the TXT record or file that proves it")
      .argument("<org>", orgHelp)
      .argument("<domain>")
      .action(async (ref: string, domain: string, _options, command: Command) => {
        const run = contextOf(command);
        report(run, await orgsDomainsAddAction(run, ref, domain), describeDomain);
      }),
  )
  .addCommand(
    new Command("verify")
      .description("look for the published proof and verify the domain")
      .argument("<org>", orgHelp)
      .argument("<domain>")
      .action(async (ref: string, domain: string, _options, command: Command) => {
        const run = contextOf(command);
        report(run, await orgsDomainsVerifyAction(run, ref, domain), describeDomain);
      }),
  )
  .addCommand(
    new Command("list")
      .description("the organization's domains and their settings")
      .argument("<org>", orgHelp)
      .action(async (ref: string, _options, command: Command) => {
        const run = contextOf(command);
        const listed = await orgsDomainsListAction(run, ref);
        noteEmpty(run, listed.length, "No domains.");
        report(run, listed, (data) =>
          formatTable(
            run.io,
            ["DOMAIN", "STATUS", "METHOD", "AUTO-JOIN", "REQUIRE SSO", "SINCE"],
            data.map((row) => [
              row.domain,
              row.status,
              row.method ?? "-",
              row.settings.autoJoin ? row.settings.autoJoinRole : "off",
              row.settings.requireSso ? "yes" : "no",
              formatDate(row.createdAt),
            ]),
          ),
        );
      }),
  )
  .addCommand(
    new Command("remove")
      .description("remove a claimed or verified domain")
      .argument("<org>", orgHelp)
      .argument("<domain>")
      .addOption(new Option("-y, --yes", "do it without asking (needed without a terminal)"))
      .action(async (ref: string, domain: string, options: { yes?: boolean }, command: Command) => {
        const run = contextOf(command);
        report(run, await orgsDomainsRemoveAction(run, ref, domain, options), (data) => [
          `removed ${data.domain} from ${ref}`,
        ]);
      }),
  );
