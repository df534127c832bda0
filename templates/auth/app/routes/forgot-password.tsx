import type { ActionFunctionArgs } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { errorMessage, getAuth } from "~/auth.server";

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  try {
    // The same answer whether or not the address has an account.
    await getAuth().api.requestPasswordReset({
      body: { email: String(form.get("email")), redirectTo: "/reset-password" },
      headers: request.headers,
    });
    return { sent: true, error: null };
  } catch (error) {
    return { sent: false, error: errorMessage(error) };
  }
}

export default function ForgotPassword() {
  const result = useActionData<typeof action>();
  if (result?.sent) return <p>If that address has an account, a reset link is on its way.</p>;
  return (
    <main>
      <h1>Forgot your password?</h1>
      {result?.error ? <p role="alert">{result.error}</p> : null}
      <Form method="post">
        <label>
          Email <input name="email" type="email" autoComplete="email" required />
        </label>
        <button type="submit">Send a reset link</button>
      </Form>
    </main>
  );
}
