import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { errorMessage, getAuth } from "~/auth.server";

// The link in the verification mail lands here with ?token=…
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (!token) return { verified: false, error: "This link is incomplete." };
  try {
    await (await getAuth()).api.verifyEmail({ query: { token }, headers: request.headers });
    return { verified: true, error: null };
  } catch (error) {
    return { verified: false, error: errorMessage(error) };
  }
}

export default function VerifyEmail() {
  const { verified, error } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>Email verification</h1>
      {verified ? <p>Your email address is verified.</p> : <p role="alert">{error}</p>}
      <Link to="/account">Continue</Link>
    </main>
  );
}
