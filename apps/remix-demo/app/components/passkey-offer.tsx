import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { authClient } from "~/lib/auth-client";
import { useT } from "~/lib/i18n";
import { usePasskeyProblem } from "./passkeys";

type OfferState = "hidden" | "shown" | "added";

/**
 * After a password sign-in, on a device that can hold a passkey (a platform authenticator with user
 * verification), the offer to add one. "Not now" keeps it away for 30 days on this browser.
 */
export function PasskeyOffer({ offered }: { offered: boolean }) {
  const { t } = useT();
  const problem = usePasskeyProblem();
  const dismiss = useFetcher();
  const seen = useFetcher();
  const [state, setState] = useState<OfferState>("hidden");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  // Asked once per offer: the layout re-renders often (session store, revalidations), and each
  // render must not restart the check and its "shown" answer.
  const asked = useRef(false);
  const markSeen = seen.submit;
  useEffect(() => {
    if (!offered || asked.current || typeof window.PublicKeyCredential !== "function") return;
    asked.current = true;
    void PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable().then((available) => {
      if (!available) return;
      setState("shown");
      // Shown once: the offer's cookie goes now (routes/passkey-offer.ts).
      markSeen({ intent: "shown" }, { method: "post", action: "/passkey-offer" });
    });
  }, [offered, markSeen]);

  async function addPasskey() {
    setBusy(true);
    setError(undefined);
    const result = await authClient.passkey.addPasskey();
    setBusy(false);
    if (result.data) setState("added");
    else setError(result.error.code);
  }

  if (state === "hidden" || dismiss.state !== "idle" || dismiss.data) return null;
  if (state === "added") {
    return (
      <p className="notice" role="status">
        {t("passkeys.offer.added")}
      </p>
    );
  }
  const message = problem(error);
  return (
    <section className="passkey-offer" aria-labelledby="passkey-offer-title" data-testid="passkey-offer">
      <h2 id="passkey-offer-title">{t("passkeys.offer.title")}</h2>
      <p>{t("passkeys.offer.body")}</p>
      {message ? (
        <p className="field-error" role="alert">
          {message}
        </p>
      ) : null}
      <div className="inline-list">
        <button
          type="button"
          className="button"
          onClick={addPasskey}
          disabled={busy}
          aria-busy={busy || undefined}
        >
          {busy ? t("common.working") : t("passkeys.offer.add")}
        </button>{" "}
        <dismiss.Form method="post" action="/passkey-offer" className="inline-form">
          <input type="hidden" name="intent" value="dismiss" />
          <button type="submit" className="button button-secondary">
            {t("passkeys.offer.notNow")}
          </button>
        </dismiss.Form>
      </div>
    </section>
  );
}
