import type { ActionFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { errorMessage, getAuth, remix } from "~/auth.server";
import { strings } from "~/strings";

export async function action(args: ActionFunctionArgs) {
  const { request } = args;
  const form = await request.formData();
  try {
    const { headers } = await (await getAuth()).api.signUpEmail({
      body: {
        name: String(form.get("name")),
        email: String(form.get("email")),
        password: String(form.get("password")),
        // The mailed link verifies through /api/auth/verify-email, then lands on routes/verify-email.tsx.
        callbackURL: "/verify-email?verified=1",
      },
      // The request's cookies and Origin, the client's address and the endpoint's rate limit.
      ...remix.onBehalfOf(args),
    });
    return remix.redirectWithCookies("/account", headers);
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

const t = strings.signUp;

export default function SignUp() {
  const result = useActionData<typeof action>();
  return (
    <main>
      <h1>{t.title}</h1>
      {result?.error ? <p role="alert">{result.error}</p> : null}
      <Form method="post">
        <label>
          {t.name} <input name="name" autoComplete="name" required />
        </label>
        <label>
          {t.email} <input name="email" type="email" autoComplete="email" required />
        </label>
        <label>
          {t.password}{" "}
          <input name="password" type="password" autoComplete="new-password" minLength={8} required />
        </label>
        <button type="submit">{t.submit}</button>
      </Form>
      <p>
        <Link to="/sign-in">{t.haveAccount}</Link>
      </p>
    </main>
  );
}
