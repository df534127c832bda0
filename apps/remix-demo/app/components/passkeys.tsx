import { type MouseEvent, useEffect, useRef, useState } from "react";
import { useErrorText } from "~/components/form";
import { authClient } from "~/lib/auth-client";
import { useT } from "~/lib/i18n";
import { twoFactorPath } from "~/lib/two-factor-path";

/*
 * The passkey parts of the pages. A ceremony runs in the browser (WebAuthn), so these are the only
 * parts of the sign-in and sign-up pages that need JavaScript; until the page has hydrated (or when
 * JavaScript is off) they say so instead of offering a button that cannot work.
 */

type PasskeySupport = "unknown" | "supported" | "unsupported";

/** "unknown" on the server and without JavaScript; after hydration, whether this browser has WebAuthn. */
function usePasskeySupport(): PasskeySupport {
  const [support, setSupport] = useState<PasskeySupport>("unknown");
  useEffect(() => {
    setSupport(typeof window.PublicKeyCredential === "function" ? "supported" : "unsupported");
  }, []);
  return support;
}

/** What the page says where a passkey button would be: JavaScript is off, or the browser has no passkeys. */
function PasskeyUnavailable({ support }: { support: PasskeySupport }) {
  const { t } = useT();
  if (support === "supported") return null;
  return (
    <p className="hint" data-testid="passkey-unavailable">
      {support === "unknown" ? t("passkeys.needsJavaScript") : t("passkeys.unsupported")}
    </p>
  );
}

/** Codes a ceremony answers that are no news to the person: they closed the prompt, or another one replaced it. */
const QUIET = new Set(["PASSKEY_ABORTED", "PASSKEY_NOT_SUPPORTED"]);

/** The page's text for a failed ceremony, or null when there is nothing to tell. */
export function usePasskeyProblem(): (code: string | undefined) => string | null {
  const text = useErrorText();
  return (code) => (code && !QUIET.has(code) ? text(code) : null);
}

/**
 * A passkey button with the message of its last failure above it; where passkeys cannot work
 * (JavaScript off, no WebAuthn) the sentence that says so instead.
 */
export function PasskeyButton({
  label,
  busy,
  error,
  onClick,
  className = "button button-secondary button-wide",
}: {
  label: string;
  busy: boolean;
  /** The code of the last failure (catalogue or client), or undefined. */
  error: string | undefined;
  onClick: (event: MouseEvent<HTMLButtonElement>) => void;
  className?: string;
}) {
  const { t } = useT();
  const support = usePasskeySupport();
  const message = usePasskeyProblem()(error);
  return (
    <>
      {message ? (
        <p className="field-error" role="alert" data-testid="passkey-error">
          {message}
        </p>
      ) : null}
      {support === "supported" ? (
        <button
          type="button"
          className={className}
          onClick={onClick}
          disabled={busy}
          aria-busy={busy || undefined}
        >
          {busy ? t("common.working") : label}
        </button>
      ) : (
        <PasskeyUnavailable support={support} />
      )}
    </>
  );
}

type SignInData = { twoFactorRedirect?: boolean; twoFactorMethods?: string[] } | null;

/** Where a passkey sign-in goes: on, or to the second step when the passkey did not verify the user. */
function continueAfterSignIn(data: SignInData, redirectTo: string): void {
  const next = data?.twoFactorRedirect ? twoFactorPath(data.twoFactorMethods ?? [], redirectTo) : redirectTo;
  // A whole new document: every loader (the header's session, admin link) reads the new cookie.
  window.location.assign(next);
}

/**
 * "Sign in with a passkey", and autofill: once the page has hydrated a conditional request waits
 * for the browser to offer the passkeys in the email field (`autocomplete="username webauthn"`).
 * The button's request replaces it (the browser runs one at a time); the waiting one comes back after.
 */
export function PasskeySignIn({ redirectTo }: { redirectTo: string }) {
  const { t } = useT();
  const support = usePasskeySupport();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const autofill = useRef<AbortController | null>(null);

  function startAutofill() {
    autofill.current?.abort();
    const controller = new AbortController();
    autofill.current = controller;
    void authClient.signIn
      .passkey({ autoFill: true, fetchOptions: { signal: controller.signal } })
      .then((result) => {
        if (controller.signal.aborted) return;
        if (result.data) continueAfterSignIn(result.data as SignInData, redirectTo);
        // Autofill runs unasked: only the server's answer to a passkey the person picked is news
        // (status 0 is the browser's side: a dismissed list, a host without passkeys such as an IP address).
        else if (result.error.status > 0) setError(result.error.code);
      });
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: one conditional request per page view.
  useEffect(() => {
    if (support !== "supported") return;
    startAutofill();
    return () => autofill.current?.abort();
  }, [support]);

  async function signInWithButton() {
    setBusy(true);
    setError(undefined);
    const result = await authClient.signIn.passkey();
    if (result.data) return continueAfterSignIn(result.data as SignInData, redirectTo);
    setBusy(false);
    setError(result.error.code);
    startAutofill();
  }

  return (
    <div className="passkey">
      <PasskeyButton label={t("passkeys.signIn")} busy={busy} error={error} onClick={signInWithButton} />
    </div>
  );
}

/**
 * Passkey-first sign-up, inside the sign-up form: the same name and email fields, no password. The
 * core creates the account and the passkey together and mails the address's verification as for any
 * sign-up.
 */
export function PasskeySignUp({
  language,
  callbackURL,
  next,
}: {
  language: string;
  /** Where the verification mail's link leads. */
  callbackURL: string;
  /** Where the new account goes once signed in. */
  next: string;
}) {
  const { t } = useT();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function signUp(form: HTMLFormElement | null) {
    const values = new FormData(form ?? undefined);
    const email = String(values.get("email") ?? "").trim();
    const name = String(values.get("name") ?? "").trim();
    if (!name || !email) return setError(name ? "EMAIL_REQUIRED" : "NAME_REQUIRED");
    setBusy(true);
    setError(undefined);
    const result = await authClient.signUp.passkey({ email, name, language, callbackURL });
    if (result.data) {
      window.location.assign(result.data.session ? next : "/verify-email?sent=1");
      return;
    }
    setBusy(false);
    setError(result.error.code);
  }

  return (
    <div className="passkey">
      <p className="divider">{t("signIn.or")}</p>
      <PasskeyButton
        label={t("passkeys.signUp")}
        busy={busy}
        error={error}
        onClick={(event) => signUp(event.currentTarget.form)}
      />
      <p className="hint">{t("passkeys.signUpHint")}</p>
    </div>
  );
}
