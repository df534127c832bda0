import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { getAuth, remix } from "~/auth.server";
import { toTesseraLanguage } from "./i18n";
import { resolveLanguage } from "./i18n.server";

/** The page to type the mailed code on (routes/sign-in_.code.tsx), for this address. */
function codePageFor(email: string, redirectTo: string): string {
  return `/sign-in/code?email=${encodeURIComponent(email)}&redirectTo=${encodeURIComponent(redirectTo)}`;
}

/**
 * "Email me a link or code": one mail holds both (docs/passwordless.md), then the code page, which
 * says the same whether or not the address has an account (an address nobody has is signed up by
 * the link or the code, in the page's language). A link that no longer works lands on the code page
 * too, which says so and offers a new mail.
 */
export async function mailSignInLink(
  { request, context }: Pick<ActionFunctionArgs, "request" | "context">,
  email: string,
  redirectTo: string,
): Promise<Response> {
  const auth = await getAuth();
  await auth.api.signInMagicLink({
    body: {
      email,
      callbackURL: redirectTo,
      newUserCallbackURL: redirectTo === "/" ? "/?welcome=1" : redirectTo,
      errorCallbackURL: codePageFor(email, redirectTo),
      language: toTesseraLanguage(resolveLanguage(request)),
    },
    ...remix.onBehalfOf({ request, context }),
  });
  return redirect(`${codePageFor(email, redirectTo)}&sent=1`);
}
