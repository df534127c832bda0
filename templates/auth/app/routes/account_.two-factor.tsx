import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { errorMessage, getAuth, remix } from "~/auth.server";
import { strings } from "~/strings";

const t = strings.twoFactorSettings;

/** What the action answers: the enrollment to show once, or the refusal. */
interface Answer {
  enrollment: { totpURI: string; secret: string; backupCodes: string[] } | null;
  error: string | null;
}

export async function loader({ request }: LoaderFunctionArgs) {
  // Read fresh: the cookie cache could still say "off" just after turning it on.
  const { user } = await remix.requireSession(request, { fresh: true });
  return { enabled: user.twoFactorEnabled === true, done: new URL(request.url).searchParams.get("done") };
}

/** The enrollment as shown: the link, its key for typing by hand, the backup codes. */
function showEnrollment(totpURI: string, backupCodes: string[]): NonNullable<Answer["enrollment"]> {
  return { totpURI, secret: new URL(totpURI).searchParams.get("secret") ?? "", backupCodes };
}

/**
 * Turning it on takes two steps: `enable` (the password again) answers the authenticator link and
 * the backup codes, shown this once; a code from the app then confirms it (`verifyTOTP` with a
 * session). Until then nothing changes at sign-in. A wrong code shows the same enrollment again
 * (the confirm form carries it back: the user's own secret, already on their screen), so the
 * account added to the authenticator app stays the right one.
 */
export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const auth = (await getAuth()).api;
  const password = String(form.get("password") ?? "");
  const intent = form.get("intent");
  try {
    if (intent === "enable") {
      const result = await auth.enableTwoFactor({ body: { password }, ...remix.onBehalfOf(args) });
      const enrollment = showEnrollment(result.data.totpURI, result.data.backupCodes);
      return data<Answer>({ enrollment, error: null }, { headers: remix.mergeCookies(result.headers) });
    }
    if (intent === "confirm") {
      const code = String(form.get("code") ?? "").replace(/\s+/g, "");
      const result = await auth.verifyTOTP({ body: { code }, ...remix.onBehalfOf(args) });
      return remix.redirectWithCookies("/account/two-factor?done=enabled", result.headers);
    }
    const result = await auth.disableTwoFactor({ body: { password }, ...remix.onBehalfOf(args) });
    return remix.redirectWithCookies("/account/two-factor?done=disabled", result.headers);
  } catch (error) {
    const totpURI = String(form.get("totpURI") ?? "");
    const shown = intent === "confirm" && totpURI.startsWith("otpauth://") && URL.canParse(totpURI);
    const backupCodes = String(form.get("backupCodes") ?? "").split(" ");
    const enrollment = shown ? showEnrollment(totpURI, backupCodes) : null;
    return data<Answer>({ enrollment, error: errorMessage(error) });
  }
}

export default function TwoFactorSettings() {
  const { enabled, done } = useLoaderData<typeof loader>();
  // data() answers are not inferred by Remix 2's types without single fetch: the shape is Answer.
  const result = useActionData<typeof action>() as Answer | undefined;
  const enrollment = result?.enrollment;
  return (
    <main>
      <h1>{t.title}</h1>
      {done === "enabled" || done === "disabled" ? <p role="status">{t.done[done]}</p> : null}
      {result?.error ? <p role="alert">{result.error}</p> : null}
      <p>
        <strong>{enabled ? t.on : t.off}</strong>
      </p>
      {enrollment ? (
        <section>
          <p>{t.scan}</p>
          <p>
            <a href={enrollment.totpURI}>{t.openInApp}</a>
          </p>
          <p>
            {t.secret} <code data-testid="totp-secret">{enrollment.secret}</code>
          </p>
          <h2>{t.backupCodes}</h2>
          <p>{t.backupCodesOnce}</p>
          <ul aria-label={t.backupCodes}>
            {enrollment.backupCodes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ul>
          <Form method="post">
            <input type="hidden" name="intent" value="confirm" />
            <input type="hidden" name="totpURI" value={enrollment.totpURI} />
            <input type="hidden" name="backupCodes" value={enrollment.backupCodes.join(" ")} />
            <label>
              {t.code}{" "}
              <input
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9 ]{6,7}"
                required
              />
            </label>
            <button type="submit">{t.confirm}</button>
          </Form>
        </section>
      ) : (
        <Form method="post">
          <input type="hidden" name="intent" value={enabled ? "disable" : "enable"} />
          <label>
            {t.password} <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit">{enabled ? t.disable : t.enable}</button>
        </Form>
      )}
      <p>
        <Link to="/account">{t.back}</Link>
      </p>
    </main>
  );
}
