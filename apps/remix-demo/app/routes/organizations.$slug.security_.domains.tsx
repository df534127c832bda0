import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { getAuth } from "~/auth.server";
import { DomainCard, DomainClaimForm, type DomainView } from "~/components/domain-card";
import { DoneNotice } from "~/components/form";
import { SecurityNav } from "~/components/security-nav";
import { failure, field, invalid, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { canManage, readRoleTable, requireOrganization } from "~/lib/org.server";

/**
 * The organization's verified domains (docs/security.md "Verified domains"): claim, publish the
 * proof, verify, choose auto-join and require-SSO, remove. Members who may not change the
 * organization read its verified domains and what they do (the core answers them no pending claim
 * and no proof token) and why there is no form.
 */
export const handle = { title: "organizations.domains.title" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organization, roles } = await requireOrganization(request, params.slug);
  const manager = canManage(roles);
  const auth = await getAuth();
  const { data: domains } = await auth.api.listOrganizationDomains({
    query: { organizationId: organization.id },
    headers: request.headers,
  });
  const { table, creatorRole } = await readRoleTable();
  const now = Date.now();
  const views: DomainView[] = domains.map((domain) => ({
    domain: domain.domain,
    status:
      domain.status === "pending" && domain.expiresAt !== null && new Date(domain.expiresAt).getTime() < now
        ? "expired"
        : domain.status,
    settings: domain.settings,
    verifiedAt: domain.verifiedAt === null ? null : new Date(domain.verifiedAt).toISOString(),
    expiresAt: domain.expiresAt === null ? null : new Date(domain.expiresAt).toISOString(),
    proof: domain.proof,
  }));
  const removing = new URL(request.url).searchParams.get("remove");
  return {
    slug: organization.slug,
    canManage: manager,
    domains: views,
    roles: Object.keys(table).filter((role) => role !== creatorRole),
    removing: views.some((view) => view.domain === removing) ? removing : null,
  };
}

const INTENTS = ["add", "verify", "settings", "remove"] as const;

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  const { organization } = await requireOrganization(request, params.slug);
  const auth = await getAuth();
  const intent = field(form, "intent");
  const domain = field(form, "domain").trim();
  const body = { organizationId: organization.id, domain };
  const page = `/organizations/${organization.slug}/security/domains`;
  if (!(INTENTS as readonly string[]).includes(intent)) return invalid({ form: "VALIDATION_ERROR" }, form);
  if (domain === "") return invalid({ domain: "DOMAIN_REQUIRED" }, form);
  try {
    if (intent === "add") await auth.api.addOrganizationDomain({ body, headers: request.headers });
    if (intent === "verify") await auth.api.verifyOrganizationDomain({ body, headers: request.headers });
    if (intent === "remove") await auth.api.removeOrganizationDomain({ body, headers: request.headers });
    if (intent === "settings") {
      await auth.api.updateOrganizationDomainSettings({
        body: {
          ...body,
          autoJoin: form.get("autoJoin") === "on",
          autoJoinRole: field(form, "autoJoinRole") || "member",
          requireSso: form.get("requireSso") === "on",
        },
        headers: request.headers,
      });
    }
    return redirectWith(`${page}?done=${intent}`);
  } catch (error) {
    // The claim form's field for its refusals; the card's own codes show in that card.
    return failure(error, form, intent === "add" ? CLAIM_FIELDS : {});
  }
}

/** Every refusal of a claim concerns the domain typed. */
const CLAIM_FIELDS = Object.fromEntries(
  [
    "INVALID_DOMAIN",
    "DOMAIN_NOT_CLAIMABLE",
    "DOMAIN_ALREADY_CLAIMED",
    "DOMAIN_LIMIT_REACHED",
    "DOMAIN_VERIFIED_BY_ANOTHER_ORGANIZATION",
    "VALIDATION_ERROR",
  ].map((code) => [code, "domain"]),
);

const OUTCOMES = {
  add: "organizations.domains.added",
  verify: "organizations.domains.verifiedNotice",
  settings: "common.saved",
  remove: "organizations.domains.removed",
};

export default function Domains() {
  const { t } = useT();
  const location = useLocation();
  const { slug, canManage, domains, roles, removing } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  const intent = state?.values?.intent;
  return (
    <section aria-labelledby="domains-title">
      <SecurityNav slug={slug} />
      <h2 id="domains-title">{t("organizations.domains.title")}</h2>
      <DoneNotice outcomes={OUTCOMES} state={state} />
      <p>{t("organizations.domains.intro")}</p>
      {canManage ? null : (
        <p className="muted" data-testid="domains-read-only">
          {t("organizations.domains.readOnly")}
        </p>
      )}
      {domains.length === 0 ? <p>{t("organizations.domains.none")}</p> : null}
      {domains.map((domain) => (
        <DomainCard
          key={domain.domain}
          domain={domain}
          roles={roles}
          removing={removing === domain.domain}
          state={state?.values?.domain === domain.domain && intent !== "add" ? state : undefined}
          pageKey={location.key}
          canManage={canManage}
        />
      ))}
      {canManage ? <DomainClaimForm state={intent === "add" ? state : undefined} key={location.key} /> : null}
      {removing ? null : (
        <p className="muted">
          <Link to={`/organizations/${slug}/security/sso`}>{t("organizations.domains.toSso")}</Link>
        </p>
      )}
    </section>
  );
}
