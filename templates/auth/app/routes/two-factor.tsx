import type { ActionFunctionArgs } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { errorMessage, getAuth, remix } from "~/auth.server";
import { strings } from "~/strings";

// The second step of a sign-in when the user has two-factor authentication on.
export async function action(args: ActionFunctionArgs) {
  const { request } = args;
  const form = await request.formData();
  try {
    const { headers } = await (await getAuth()).api.verifyTOTP({
      body: { code: String(form.get("code")), trustDevice: form.get("trust") === "on" },
      // The request's cookies and Origin, the client's address and the endpoint's rate limit.
      ...remix.onBehalfOf(args),
    });
    return remix.redirectWithCookies("/account", headers);
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

const t = strings.twoFactor;

export default function TwoFactor() {
  const result = useActionData<typeof action>();
  return (
    <main>
      <h1>{t.title}</h1>
      {result?.error ? <p role="alert">{result.error}</p> : null}
      <Form method="post">
        <label>
          {t.code}{" "}
          <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" required />
        </label>
        <label>
          <input name="trust" type="checkbox" /> {t.trust}
        </label>
        <button type="submit">{t.submit}</button>
      </Form>
    </main>
  );
}
