import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { errorMessage, getAuth, remix } from "~/auth.server";
import { strings } from "~/strings";

export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return { token: url.searchParams.get("token"), error: url.searchParams.get("error") };
}

export async function action(args: ActionFunctionArgs) {
  const { request } = args;
  const form = await request.formData();
  try {
    await (await getAuth()).api.resetPassword({
      body: { token: String(form.get("token")), newPassword: String(form.get("password")) },
      // The request's cookies and Origin, the client's address and the endpoint's rate limit.
      ...remix.onBehalfOf(args),
    });
    return redirect("/sign-in");
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

const t = strings.resetPassword;

export default function ResetPassword() {
  const { token, error } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (!token || error) return <p role="alert">{t.invalid}</p>;
  return (
    <main>
      <h1>{t.title}</h1>
      {result?.error ? <p role="alert">{result.error}</p> : null}
      <Form method="post">
        <input type="hidden" name="token" value={token} />
        <label>
          {t.newPassword} <input name="password" type="password" autoComplete="new-password" required />
        </label>
        <button type="submit">{t.submit}</button>
      </Form>
    </main>
  );
}
