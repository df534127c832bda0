import { type ClientError, createAuthClient } from "@tessera/auth-core/client";
import { catalogueMessage, languageFromTag } from "@tessera/auth-core/i18n";
import { useState } from "react";
import { LANG, strings } from "~/strings";

/**
 * The passkey buttons. A WebAuthn ceremony runs in the browser only: the client asks the core for
 * the options, the authenticator answers, the client sends the answer back (docs/passkeys.md).
 */
const t = strings.passkeys;

/** What to show for a failed ceremony: nothing when the user cancelled, else a sentence in LANG. */
function describeProblem(error: ClientError): string | null {
  if (error.code === "PASSKEY_CANCELLED" || error.code === "PASSKEY_ABORTED") return null;
  if (error.code === "PASSKEY_NOT_SUPPORTED") return t.notSupported;
  return catalogueMessage(error.code, languageFromTag(LANG) ?? "ENG") ?? strings.common.somethingWrong;
}

function usePasskeyButton(run: () => Promise<ClientError | null>) {
  const [problem, setProblem] = useState<string | null>(null);
  const onClick = async () => {
    setProblem(null);
    const error = await run();
    if (error) setProblem(describeProblem(error));
  };
  return { problem, onClick: () => void onClick() };
}

/** On the sign-in page: a passkey instead of the password; then where the form would have gone. */
export function PasskeySignIn({ redirectTo }: { redirectTo: string }) {
  const button = usePasskeyButton(async () => {
    const { data, error } = await createAuthClient().signIn.passkey();
    if (data) window.location.assign("twoFactorRedirect" in data ? "/two-factor" : redirectTo);
    return error;
  });
  return (
    <p>
      {button.problem ? <span role="alert">{button.problem} </span> : null}
      <button type="button" onClick={button.onClick}>
        {t.signIn}
      </button>
    </p>
  );
}

/** On the passkeys page: makes one with this device's authenticator, then `onAdded` (reload the list). */
export function AddPasskey({ onAdded }: { onAdded: () => void }) {
  const button = usePasskeyButton(async () => {
    const { error } = await createAuthClient().passkey.addPasskey();
    if (!error) onAdded();
    return error;
  });
  return (
    <>
      {button.problem ? <p role="alert">{button.problem}</p> : null}
      <button type="button" onClick={button.onClick}>
        {t.add}
      </button>
    </>
  );
}
