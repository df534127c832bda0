import { Form } from "@remix-run/react";
import { useT } from "~/lib/i18n";

/** How a provider id is shown: its brand name. */
export const PROVIDER_NAMES: Record<string, string> = {
  github: "GitHub",
  google: "Google",
  gitlab: "GitLab",
  discord: "Discord",
  microsoft: "Microsoft",
};

/** One button per configured provider; /social posts to the core and follows its redirect. */
export function SocialButtons({ providers, callbackURL }: { providers: string[]; callbackURL: string }) {
  const { t } = useT();
  if (providers.length === 0) return null;
  return (
    <div className="social">
      <p className="divider">{t("signIn.or")}</p>
      {providers.map((provider) => (
        <Form method="post" action="/social" key={provider} reloadDocument>
          <input type="hidden" name="provider" value={provider} />
          <input type="hidden" name="callbackURL" value={callbackURL} />
          <button type="submit" className="button button-secondary button-wide">
            {t("signIn.withProvider", { provider: PROVIDER_NAMES[provider] ?? provider })}
          </button>
        </Form>
      ))}
    </div>
  );
}
