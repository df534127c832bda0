import type { ActionFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { field, readForm } from "~/lib/forms.server";
import { dismissPasskeyOfferCookies, endPasskeyOfferCookie } from "~/lib/passkey-offer.server";

/**
 * The passkey offer's answers (components/passkey-offer.tsx): "shown" ends the offer (it is shown
 * once); "Not now" also keeps it away from this browser for 30 days.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const dismissed = field(form, "intent") === "dismiss";
  return data({ dismissed }, { headers: dismissed ? dismissPasskeyOfferCookies() : endPasskeyOfferCookie() });
}
