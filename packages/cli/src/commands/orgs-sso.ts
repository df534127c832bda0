import type { SsoProvider, SsoProviderTest } from "@tessera/auth-core/operator";
import { Command, Option } from "commander";
import { confirmOrRefuse, contextOf, noteEmpty, type RunContext, report } from "../kit.ts";
import { type OrganizationRecord, resolveOrganization, withOperator } from "../operator.ts";
import { buildRegisterInput, type SsoAddOptions } from "../sso-input.ts";
import { formatDate, formatTable } from "../table.ts";

/**
 * `tessera orgs sso`: an organization's SSO connections (docs/security.md "Single sign-on") through
 * the endpoints' own services, as the operator `cli:<os user>`, each change audited. Exit codes as
 * every command's: 2 usage (a flag missing or refused by the endpoint's schema), 3 not found (the
 * organization, the connection), 4 refused by a rule (a taken or reserved id, discovery failing,
 * a URL the outbound guard refuses).
 */

type OperatorModule = typeof import("@tessera/auth-core/operator");
type Organization = OrganizationRecord;

async function withSso<T>(
  run: RunContext,
  ref: string,
  work: (sso: ReturnType<OperatorModule["createOperatorSso"]>, org: Organization) => Promise<T>,
): Promise<T> {
  return withOperator(run, async (session) => {
    const { createOperatorSso } = await import("@tessera/auth-core/operator");
    const org = await resolveOrganization(session, ref);
    return work(createOperatorSso(session.auth, session.actor), org);
  });
}

export function orgsSsoListAction(run: RunContext, ref: string): Promise<SsoProvider[]> {
  return withSso(run, ref, (sso, org) => sso.list(org));
}

export async function orgsSsoAddAction(
  run: RunContext,
  ref: string,
  options: SsoAddOptions,
): Promise<SsoProvider> {
  const input = await buildRegisterInput(run, options);
  return withSso(run, ref, (sso, org) => sso.add(org, input));
}

export function orgsSsoTestAction(
  run: RunContext,
  ref: string,
  providerId: string,
): Promise<SsoProviderTest> {
  return withSso(run, ref, (sso, org) => sso.test(org, providerId));
}

/**
 * Turns a connection on or off. Off, nobody signs in through it (its users and accounts stay), so
 * it asks first, as remove does; on asks nothing.
 */
export function orgsSsoSetEnabledAction(
  run: RunContext,
  ref: string,
  providerId: string,
  enabled: boolean,
  options: { yes?: boolean | undefined } = {},
): Promise<SsoProvider> {
  return withSso(run, ref, async (sso, org) => {
    if (!enabled)
      await confirmOrRefuse(
        run,
        options.yes,
        `Disable SSO connection ${providerId} of ${org.name} (${org.slug}), so nobody can sign in through it until it is enabled again?`,
      );
    return sso.setEnabled(org, providerId, enabled);
  });
}

export function orgsSsoRemoveAction(
  run: RunContext,
  ref: string,
  providerId: string,
  options: { yes?: boolean | undefined },
): Promise<{ providerId: string; accountsRemoved: number }> {
  return withSso(run, ref, async (sso, org) => {
    await confirmOrRefuse(
      run,
      options.yes,
      `Remove SSO connection ${providerId} from ${org.name} (${org.slug}), so its users can no longer sign in through it?`,
    );
    return sso.remove(org, providerId);
  });
}

/** What to give the IdP, and what to run next. */
function describeAdded(ref: string, provider: SsoProvider): string[] {
  const give =
    provider.type === "oidc"
      ? [`Give the IdP this redirect URI: ${provider.redirectURI}`]
      : [`Give the IdP our SP metadata:   ${provider.spMetadataUrl}`];
  return [
    `registered ${provider.providerId} (${provider.type}, ${provider.enabled ? "enabled" : "disabled"})`,
    ...give,
    `then run: tessera orgs sso test ${ref} ${provider.providerId}`,
  ];
}

const orgHelp = "the organization's slug or id";

const addCommand = new Command("add")
  .description("register an OIDC or SAML connection; prints what to give the IdP")
  .argument("<org>", orgHelp)
  .addOption(new Option("--type <type>", "the protocol").choices(["oidc", "saml"]).makeOptionMandatory())
  .requiredOption("--provider-id <id>", "names the connection (in its callback URL): letters, digits, . _ -")
  .requiredOption(
    "--issuer <url>",
    "OIDC: the IdP's issuer URL; SAML: our entity id (the Audience the IdP sends)",
  )
  .requiredOption("--domain <domain>", "the email domain(s) it serves, comma-separated")
  .option("--default-role <role>", "the role of members a first sign-in creates (default member)")
  .option("--disabled", "register it turned off (turn it on after a test)")
  .option("--client-id <id>", "OIDC: the client id")
  .option("--client-secret-env <name>", "OIDC: read the client secret from this environment variable")
  .option("--client-secret-stdin", "OIDC: read the client secret from the first line of stdin")
  .option(
    "--client-secret <secret>",
    "OIDC: the client secret (visible in the shell history: prefer the two above)",
  )
  .option(
    "--discovery-url <url>",
    "OIDC: the discovery document (default <issuer>/.well-known/openid-configuration)",
  )
  .option("--skip-discovery", "OIDC: no discovery; then --authorization-url, --token-url and --jwks-url")
  .option("--authorization-url <url>", "OIDC: the authorization endpoint")
  .option("--token-url <url>", "OIDC: the token endpoint")
  .option("--jwks-url <url>", "OIDC: the signing keys (on the issuer's host)")
  .option("--userinfo-url <url>", "OIDC: the userinfo endpoint")
  .option("--metadata-file <path>", "SAML: the IdP's metadata XML (entity id, sign-in URL, certificate)")
  .option("--entry-point <url>", "SAML: the IdP's sign-in URL (without --metadata-file)")
  .option("--cert-file <path>", "SAML: the IdP's signing certificate, PEM (without --metadata-file)")
  .option("--idp-entity-id <id>", "SAML: the IdP's entity id (without --metadata-file)")
  .action(async (ref: string, options: SsoAddOptions, command: Command) => {
    const run = contextOf(command);
    report(run, await orgsSsoAddAction(run, ref, options), (data) => describeAdded(ref, data));
  });

export const orgsSsoCommand = new Command("sso")
  .description("an organization's SSO connections (OIDC, SAML)")
  .addCommand(
    new Command("list")
      .description("the organization's connections")
      .argument("<org>", orgHelp)
      .action(async (ref: string, _options, command: Command) => {
        const run = contextOf(command);
        const listed = await orgsSsoListAction(run, ref);
        noteEmpty(run, listed.length, "No SSO connections.");
        report(run, listed, (data) =>
          formatTable(
            run.io,
            ["PROVIDER", "TYPE", "ISSUER / ENTRY POINT", "DOMAIN", "ENABLED", "CREATED"],
            data.map((row) => [
              row.providerId,
              row.type,
              row.samlConfig?.entryPoint ?? row.issuer,
              row.domainVerified ? row.domain : `${row.domain} (unverified)`,
              row.enabled ? "yes" : "no",
              formatDate(row.createdAt),
            ]),
          ),
        );
      }),
  )
  .addCommand(addCommand)
  .addCommand(
    new Command("test")
      .description(
        "check a connection (OIDC: discovery, issuer, signing keys; SAML: the sign-in URL, the certificates and when they expire)",
      )
      .argument("<org>", orgHelp)
      .argument("<provider-id>")
      .action(async (ref: string, providerId: string, _options, command: Command) => {
        const run = contextOf(command);
        report(run, await orgsSsoTestAction(run, ref, providerId), (data) => [
          `${providerId}: passed ${data.checks.join(", ")}`,
          ...(data.certificateExpiresAt
            ? [`the IdP's signing certificate is valid until ${data.certificateExpiresAt}`]
            : []),
        ]);
      }),
  )
  .addCommand(
    new Command("enable")
      .description("let members sign in through a connection again")
      .argument("<org>", orgHelp)
      .argument("<provider-id>")
      .action(async (ref: string, providerId: string, _options: unknown, command: Command) => {
        const run = contextOf(command);
        report(run, await orgsSsoSetEnabledAction(run, ref, providerId, true), (data) => [
          `enabled ${data.providerId} of ${ref}`,
        ]);
      }),
  )
  .addCommand(
    new Command("disable")
      .description("stop sign-ins through a connection (it stays, and can be enabled again)")
      .argument("<org>", orgHelp)
      .argument("<provider-id>")
      .addOption(new Option("-y, --yes", "do it without asking (needed without a terminal)"))
      .action(async (ref: string, providerId: string, options: { yes?: boolean }, command: Command) => {
        const run = contextOf(command);
        report(run, await orgsSsoSetEnabledAction(run, ref, providerId, false, options), (data) => [
          `disabled ${data.providerId} of ${ref}: nobody signs in through it until \`tessera orgs sso enable ${ref} ${data.providerId}\``,
        ]);
      }),
  )
  .addCommand(
    new Command("remove")
      .description("remove a connection (its users stay; their SSO accounts go)")
      .argument("<org>", orgHelp)
      .argument("<provider-id>")
      .addOption(new Option("-y, --yes", "do it without asking (needed without a terminal)"))
      .action(async (ref: string, providerId: string, options: { yes?: boolean }, command: Command) => {
        const run = contextOf(command);
        report(run, await orgsSsoRemoveAction(run, ref, providerId, options), (data) => [
          `removed ${data.providerId} from ${ref} (${data.accountsRemoved} accounts)`,
        ]);
      }),
  );
