import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { safeRedirect } from "@tessera/auth-core/remix";
import { errorMessage, getAuth, remix } from "~/auth.server";
import { PasskeySignIn } from "~/components/passkeys"; // feature: passkey
import { strings } from "~/strings";

/** Where to go after signing in: the page that sent the visitor here, never another site. */
export async function loader({ request }: LoaderFunctionArgs) {
  // Already signed in: to the account page.
  await remix.requireAnonymous(request);
  return { redirectTo: safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/account") };
}

export async function action(args: ActionFunctionArgs) {
  const { request } = args;
  const form = await request.formData();
  try {
    const { data, headers } = await (await getAuth()).api.signInEmail({
      body: { email: String(form.get("email")), password: String(form.get("password")) },
      // The request's cookies and Origin, the client's address and the endpoint's rate limit.
      ...remix.onBehalfOf(args),
    });
    const redirectTo = safeRedirect(form.get("redirectTo"), "/account");
    const next = "twoFactorRedirect" in data ? "/two-factor" : redirectTo;
    return remix.redirectWithCookies(next, headers);
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

const t = strings.signIn;

/** Other ways to sign in, under the form (init keeps each chosen feature's line). */
const OTHER_WAYS: ((props: { redirectTo: string }) => React.ReactNode)[] = [
  PasskeySignIn, // feature: passkey
];

export default function SignIn() {
  const result = useActionData<typeof action>();
  const { redirectTo } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>{t.title}</h1>
      {result?.error ? <p role="alert">{result.error}</p> : null}
      <Form method="post">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <label>
          {t.email} <input name="email" type="email" autoComplete="email" required />
        </label>
        <label>
          {t.password} <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit">{t.submit}</button>
      </Form>
      {OTHER_WAYS.map((Way) => (
        <Way key={Way.name} redirectTo={redirectTo} />
      ))}
      <p>
        <Link to="/forgot-password">{t.forgot}</Link> · <Link to="/sign-up">{t.createAccount}</Link>
      </p>
    </main>
  );
}
