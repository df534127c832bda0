import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { isAuthError } from "@tessera/auth-core";
import { getAuth } from "~/auth.server";
import { ErrorSummary, Submit, useErrorText } from "~/components/form";
import { VerifyEmailFirst } from "~/components/verify-email-first";
import { failure, field, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { getViewer, requireViewer } from "~/lib/session.server";

export const handle = { title: "invitation.title" };

// The invitation mail's link. Signed out: sign in or up first, then come back here.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const here = `/accept-invitation/${params.id}`;
  const viewer = await getViewer(request);
  if (!viewer) return { state: "signed-out" as const, here, invitation: null, error: null, email: null };
  const auth = await getAuth();
  try {
    const { data } = await auth.api.getInvitation({
      query: { id: params.id ?? "" },
      headers: request.headers,
    });
    return {
      state: "ready" as const,
      here,
      email: viewer.user.email,
      error: null,
      invitation: {
        id: data.id,
        organizationName: data.organizationName,
        inviterEmail: data.inviterEmail,
        role: data.role,
      },
    };
  } catch (error) {
    if (!isAuthError(error)) throw error;
    return { state: "error" as const, here, invitation: null, error: error.code, email: viewer.user.email };
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  const { user } = await requireViewer(request);
  const auth = await getAuth();
  const invitationId = params.id ?? "";
  const here = `/accept-invitation/${encodeURIComponent(invitationId)}`;
  try {
    if (field(form, "intent") === "resend-verification") {
      // The link brings the invitee back here once the address is verified.
      await auth.api.sendVerificationEmail({
        body: { email: user.email, callbackURL: `/verify-email?next=${encodeURIComponent(here)}` },
        headers: request.headers,
      });
      return redirectWith(`${here}?sent=1`);
    }
    if (field(form, "intent") === "reject") {
      await auth.api.rejectInvitation({ body: { invitationId }, headers: request.headers });
      return redirectWith("/organizations");
    }
    const result = await auth.api.acceptInvitation({ body: { invitationId }, headers: request.headers });
    const { data: organizations } = await auth.api.listOrganizations({ headers: request.headers });
    const slug = organizations.find((org) => org.id === result.data.member.organizationId)?.slug;
    return redirectWith(slug ? `/organizations/${slug}/members` : "/organizations", result.headers);
  } catch (error) {
    return failure(error, form);
  }
}

export default function AcceptInvitation() {
  const { t } = useT();
  const text = useErrorText();
  const data = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  const [params] = useSearchParams();
  const back = encodeURIComponent(data.here);
  return (
    <section className="card narrow">
      <h1>{t("invitation.title")}</h1>
      {data.state === "signed-out" ? (
        <>
          <p>{t("invitation.signInFirst")}</p>
          <ul className="inline-list">
            <li>
              <Link className="button" to={`/sign-in?redirectTo=${back}`}>
                {t("nav.signIn")}
              </Link>
            </li>
            <li>
              <Link className="button button-secondary" to={`/sign-up?redirectTo=${back}`}>
                {t("nav.signUp")}
              </Link>
            </li>
          </ul>
        </>
      ) : data.state === "error" && data.error === "INVITATION_EMAIL_NOT_VERIFIED" ? (
        <>
          <ErrorSummary state={state} />
          <VerifyEmailFirst message={text(data.error)} sent={params.has("sent")} isRefusal />
          <p className="muted">{t("invitation.signedInAs", { email: data.email })}</p>
        </>
      ) : data.state === "error" ? (
        <>
          <p className="field-error" role="alert">
            {text(data.error ?? "INVITATION_NOT_FOUND")}
          </p>
          <p className="muted">{t("invitation.signedInAs", { email: data.email })}</p>
        </>
      ) : (
        <>
          <p>
            {t("invitation.details", {
              organization: data.invitation?.organizationName,
              inviter: data.invitation?.inviterEmail,
              role: t(`organizations.roles.${data.invitation?.role}`, {
                defaultValue: data.invitation?.role,
              }),
            })}
          </p>
          <ErrorSummary state={state} />
          <Form method="post" className="row-actions">
            <Submit intent="accept">{t("invitation.accept")}</Submit>
            <Submit intent="reject" className="button button-secondary">
              {t("invitation.reject")}
            </Submit>
          </Form>
        </>
      )}
    </section>
  );
}
