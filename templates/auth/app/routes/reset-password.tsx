import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { errorMessage, getAuth, remix } from "~/auth.server";

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

export default function ResetPassword() {
  const { token, error } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (!token || error) return <p role="alert">This reset link is invalid or has expired.</p>;
  return (
    <main>
      <h1>Choose a new password</h1>
      {result?.error ? <p role="alert">{result.error}</p> : null}
      <Form method="post">
        <input type="hidden" name="token" value={token} />
        <label>
          New password <input name="password" type="password" autoComplete="new-password" required />
        </label>
        <button type="submit">Save</button>
      </Form>
    </main>
  );
}
