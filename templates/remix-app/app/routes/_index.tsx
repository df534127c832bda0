import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { remix } from "~/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await remix.getSession(request);
  return { name: session?.user.name ?? null };
}

export default function Index() {
  const { name } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>Welcome</h1>
      {name === null ? (
        <p>
          <Link to="/sign-in">Sign in</Link> or <Link to="/sign-up">create an account</Link>.
        </p>
      ) : (
        <p>
          Signed in as {name}. <Link to="/account">Your account</Link>
        </p>
      )}
    </main>
  );
}
