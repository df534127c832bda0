import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { errorMessage, getAuth, remix } from "~/auth.server";

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
      <h1>Your account</h1>
      {result?.error ? <p role="alert">{result.error}</p> : null}
      <p>
        Signed in as <strong>{user.name}</strong> ({user.email})
        {user.emailVerified ? "" : " — email not verified yet"}
      </p>
      <Form method="post">
        <button type="submit">Sign out</button>
      </Form>
    </main>
  );
}
