import type { ActionFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { errorMessage, getAuth, remix } from "~/auth.server";

export async function action(args: ActionFunctionArgs) {
  const { request } = args;
  const form = await request.formData();
  try {
    const { data, headers } = await (await getAuth()).api.signInEmail({
      body: { email: String(form.get("email")), password: String(form.get("password")) },
      // The request's cookies and Origin, the client's address and the endpoint's rate limit.
      ...remix.onBehalfOf(args),
    });
    const next = "twoFactorRedirect" in data ? "/two-factor" : "/account";
    return remix.redirectWithCookies(next, headers);
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

export default function SignIn() {
  const result = useActionData<typeof action>();
  return (
    <main>
      <h1>Sign in</h1>
      {result?.error ? <p role="alert">{result.error}</p> : null}
      <Form method="post">
        <label>
          Email <input name="email" type="email" autoComplete="email" required />
        </label>
        <label>
          Password <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit">Sign in</button>
      </Form>
      <p>
        <Link to="/forgot-password">Forgot your password?</Link> ·{" "}
        <Link to="/sign-up">Create an account</Link>
      </p>
    </main>
  );
}
