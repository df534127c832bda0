import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { errorMessage, getAuth, remix } from "~/auth.server";
import { strings } from "~/strings";

const t = strings.account;

/**
 * The pages of the features this app was made with. `tessera init` keeps the line of each chosen
 * feature (its `feature:` comment) and drops the others with their pages.
 */
const PAGES: { to: string; label: string }[] = [
  { to: "/account/two-factor", label: t.twoFactor }, // feature: two-factor
  { to: "/account/passkeys", label: t.passkeys }, // feature: passkey
  { to: "/account/api-keys", label: t.apiKeys }, // feature: api-key
  { to: "/organizations", label: t.organizations }, // feature: organization
];

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await remix.requireSession(request);
  return { user };
}

export async function action(args: ActionFunctionArgs) {
  try {
    const { headers } = await (await getAuth()).api.signOut(remix.onBehalfOf(args));
    return remix.redirectWithCookies("/sign-in", headers);
  } catch (error) {
    // A refusal (a form posted from an origin the app does not trust) is shown, not thrown.
    return { error: errorMessage(error) };
  }
}

export default function Account() {
  const { user } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <main>
      <h1>{t.title}</h1>
      {result?.error ? <p role="alert">{result.error}</p> : null}
      <p>
        {t.signedInAs(user.name, user.email)}
        {user.emailVerified ? "" : t.notVerified}
      </p>
      {PAGES.length > 0 ? (
        <nav aria-label={t.more}>
          <ul>
            {PAGES.map((page) => (
              <li key={page.to}>
                <Link to={page.to}>{page.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <Form method="post">
        <button type="submit">{t.signOut}</button>
      </Form>
    </main>
  );
}
