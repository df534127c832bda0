import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { isAuthError } from "@tessera/auth-core";
import { getAuth, remix } from "~/auth.server";
import { ErrorSummary, Submit } from "~/components/form";
import { failure, field, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { safeRedirect } from "~/lib/session.server";

export const handle = { title: "signInConfirm.title" };

/**
 * The mailed sign-in link's page (`magicLink.confirmURL` in auth.server.ts). Mail scanners open every
 * link of a mail before the person does (docs/passwordless.md "Mail scanners"): this GET reads only —
 * the account's address, from the core's stored link, never from this URL — and only the button's
 * POST signs in. A link that no longer works says so here.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const token = params.get("token") ?? "";
  const link = {
    token,
    callbackURL: safeRedirect(params.get("callbackURL")),
    newUserCallbackURL: safeRedirect(params.get("newUserCallbackURL") ?? params.get("callbackURL")),
    errorCallbackURL: safeRedirect(params.get("errorCallbackURL") ?? "/sign-in"),
  };
  const auth = await getAuth();
  try {
    const { data } = await auth.api.getMagicLinkConfirmation({ query: { token } });
    return { email: data.email, link };
  } catch (error) {
    if (isAuthError(error) && error.status < 500) return { email: null, link };
    throw error;
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const auth = await getAuth();
  try {
    // With a callbackURL the core answers a redirect: there, to newUserCallbackURL for a new
    // account, or to errorCallbackURL with `error=<code>` (the code page then says the link failed).
    const result = await auth.api.magicLinkVerify({
      body: {
        token: field(form, "token"),
        callbackURL: safeRedirect(field(form, "callbackURL")),
        newUserCallbackURL: safeRedirect(field(form, "newUserCallbackURL")),
        errorCallbackURL: safeRedirect(field(form, "errorCallbackURL") || "/sign-in"),
      },
      ...remix.onBehalfOf({ request, context }),
    });
    return redirectWith(result.headers.get("location") ?? "/", result.headers);
  } catch (error) {
    return failure(error, form);
  }
}

export default function SignInConfirm() {
  const { t } = useT();
  const { email, link } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  if (email === null) {
    return (
      <section className="card narrow">
        <h1>{t("signInConfirm.deadTitle")}</h1>
        <p>{t("signInConfirm.dead")}</p>
        <p>
          <Link className="button" to="/sign-in">
            {t("signInConfirm.newLink")}
          </Link>
        </p>
      </section>
    );
  }
  return (
    <section className="card narrow">
      <h1>{t("signInConfirm.question", { email })}</h1>
      <ErrorSummary state={state} />
      <p>{t("signInConfirm.explain")}</p>
      <Form method="post">
        {Object.entries(link).map(([name, value]) => (
          <input type="hidden" name={name} value={value} key={name} />
        ))}
        <Submit>{t("signInConfirm.submit")}</Submit>
      </Form>
      <p className="hint">{t("signInConfirm.notYou")}</p>
    </section>
  );
}
