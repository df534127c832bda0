import type { ActionFunctionArgs } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { errorMessage, getAuth, remix } from "~/auth.server";
import { strings } from "~/strings";

export async function action(args: ActionFunctionArgs) {
  const { request } = args;
  const form = await request.formData();
  try {
    // The same answer whether or not the address has an account.
    await (await getAuth()).api.requestPasswordReset({
      body: { email: String(form.get("email")), redirectTo: "/reset-password" },
      // The request's cookies and Origin, the client's address and the endpoint's rate limit.
      ...remix.onBehalfOf(args),
    });
    return { sent: true, error: null };
  } catch (error) {
    return { sent: false, error: errorMessage(error) };
  }
}

const t = strings.forgotPassword;

export default function ForgotPassword() {
  const result = useActionData<typeof action>();
  if (result?.sent) return <p>{t.sent}</p>;
  return (
    <main>
      <h1>{t.title}</h1>
      {result?.error ? <p role="alert">{result.error}</p> : null}
      <Form method="post">
        <label>
          {t.email} <input name="email" type="email" autoComplete="email" required />
        </label>
        <button type="submit">{t.submit}</button>
      </Form>
    </main>
  );
}
