import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { getAuth, remix } from "~/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await remix.requireSession(request);
  return { user };
}

export async function action({ request }: ActionFunctionArgs) {
  const { headers } = await getAuth().api.signOut({ headers: request.headers });
  return remix.redirectWithCookies("/sign-in", headers);
}

export default function Account() {
  const { user } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>Your account</h1>
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
