import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useSearchParams } from "@remix-run/react";
import { isAuthError } from "@tessera/auth-core";
import { getAuth } from "~/auth.server";
import { ActiveOrganizationToggle } from "~/components/active-organization";
import { ErrorSummary, Field, Submit } from "~/components/form";
import { SlugField } from "~/components/slug-field";
import { VerifyEmailFirst } from "~/components/verify-email-first";
import { failure, field, invalid, missingFields, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { requireViewer } from "~/lib/session.server";

export const handle = { title: "organizations.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request);
  const auth = await getAuth();
  const [organizations, invitations] = await Promise.all([
    auth.api.listOrganizations({ headers: request.headers }),
    // An unverified address sees no invitations (the core's requireEmailVerificationOnInvitation):
    // the page says so instead of failing.
    auth.api.listUserInvitations({ headers: request.headers }).catch((error: unknown) => {
      if (isAuthError(error) && error.code === "INVITATION_EMAIL_NOT_VERIFIED") return null;
      throw error;
    }),
  ]);
  return {
    activeId: viewer.session.activeOrganizationId,
    organizations: organizations.data.map((org) => ({ id: org.id, name: org.name, slug: org.slug })),
    invitationsNeedVerifiedEmail: invitations === null,
    invitations: (invitations?.data ?? [])
      .filter((invitation) => invitation.status === "pending")
      .map((invitation) => ({
        id: invitation.id,
        organizationName: invitation.organizationName,
        role: invitation.role,
      })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const { user } = await requireViewer(request);
  const auth = await getAuth();
  try {
    if (field(form, "intent") === "resend-verification") {
      await auth.api.sendVerificationEmail({
        body: { email: user.email, callbackURL: "/verify-email?next=%2Forganizations" },
        headers: request.headers,
      });
      return redirectWith("/organizations?sent=1");
    }
    if (field(form, "intent") === "activate") {
      const result = await auth.api.setActiveOrganization({
        body: { organizationId: field(form, "organizationId") || null },
        headers: request.headers,
      });
      // From an organization's own page (its "Make active"), back to that page; anything else, the list.
      const returnTo = field(form, "returnTo");
      const back = /^\/organizations\/[a-z0-9][a-z0-9._-]*$/.test(returnTo) ? returnTo : "/organizations";
      return redirectWith(back, result.headers);
    }
    const name = field(form, "name").trim();
    const slug = field(form, "slug").trim();
    const missing = missingFields(form, { name: "ORGANIZATION_NAME_REQUIRED", slug: "SLUG_REQUIRED" });
    if (missing) return invalid(missing, form);
    const result = await auth.api.createOrganization({ body: { name, slug }, headers: request.headers });
    return redirectWith(`/organizations/${result.data.slug}`, result.headers);
  } catch (error) {
    return failure(error, form, { VALIDATION_ERROR: "slug" });
  }
}

export default function Organizations() {
  const { t } = useT();
  const location = useLocation();
  const { organizations, invitations, invitationsNeedVerifiedEmail, activeId } =
    useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  const [params] = useSearchParams();
  return (
    <div className="card">
      <h1>{t("organizations.title")}</h1>
      {invitationsNeedVerifiedEmail ? (
        <VerifyEmailFirst message={t("organizations.verifyToSeeInvitations")} sent={params.has("sent")} />
      ) : null}
      {invitations.length > 0 ? (
        <section aria-labelledby="my-invitations">
          <h2 id="my-invitations">{t("organizations.myInvitations")}</h2>
          <ul>
            {invitations.map((invitation) => (
              <li key={invitation.id}>
                <Link to={`/accept-invitation/${invitation.id}`}>
                  {t("organizations.invitationTo", {
                    name: invitation.organizationName,
                    role: invitation.role,
                  })}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="my-organizations">
        <h2 id="my-organizations">{t("organizations.mine")}</h2>
        {organizations.length === 0 ? <p>{t("organizations.none")}</p> : null}
        <table>
          <tbody>
            {organizations.map((org) => (
              <tr key={org.id}>
                <th scope="row">
                  <Link to={`/organizations/${org.slug}`}>{org.name}</Link>
                </th>
                <td>
                  <code>{org.slug}</code>
                </td>
                <td>
                  <ActiveOrganizationToggle organization={org} isActive={org.id === activeId} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="create-organization">
        <h2 id="create-organization">{t("organizations.create")}</h2>
        <ErrorSummary
          state={state}
          labels={{ name: t("organizations.fields.name"), slug: t("organizations.fields.slug") }}
        />
        <Form method="post" noValidate key={location.key}>
          <Field name="name" label={t("organizations.fields.name")} state={state} />
          <SlugField state={state} />
          <Submit intent="create">{t("organizations.createSubmit")}</Submit>
        </Form>
      </section>
    </div>
  );
}
