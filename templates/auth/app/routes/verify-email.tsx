import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { errorMessage, getAuth } from "~/auth.server";

/** What the `error` of /api/auth/verify-email's redirect means, for the visitor. */
const LINK_ERRORS: Record<string, string> = {
  token_expired: "This link has expired. Sign in and ask for a new one.",
  invalid_token: "This link is not valid. Use the latest link you received.",
  user_not_found: "The account of this link no longer exists.",
  unauthorized: "This link belongs to another account. Sign out and open it again.",
  email_can_not_be_updated: "That email address is already in use.",
};

// The mailed link verifies at /api/auth/verify-email and lands here (sign-up's callbackURL) with
// ?verified=1 or ?error=…; a link with ?token=… straight to this page is verified here.
export async function loader({ request }: LoaderFunctionArgs) {
  const query = new URL(request.url).searchParams;
  const failed = query.get("error");
  if (failed) return { verified: false, error: LINK_ERRORS[failed] ?? "This link is not valid." };
  if (query.get("verified") === "1") return { verified: true, error: null };
  const token = query.get("token");
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
