import { magicLinkConfirmPageContract } from "../../../contracts/passwordless.ts";
import { defineEndpoint, htmlPage, redirectTo } from "../../../http/define-endpoint.ts";
import { DEFAULT_LANGUAGE, languageOf } from "../../../i18n/languages.ts";
import { findLiveLink } from "../checks.ts";
import { renderConfirmPage } from "../confirm-page.ts";
import { assertMagicLinkEnabled } from "./guards.ts";
import { withQuery } from "./redirects.ts";

/**
 * GET (and HEAD) of the mailed link: corporate mail gateways open every link of a mail before the
 * person does, so this reads and never spends (docs/passwordless.md "Mail scanners"). A live link
 * gets the page that asks to confirm — the app's `magicLink.confirmURL`, or the core's own, in the
 * language of the mail — whose POST signs in; a dead one goes to the app with `error=INVALID_TOKEN`.
 */
export const magicLinkConfirmPage = defineEndpoint(magicLinkConfirmPageContract, {
  async handler(ctx) {
    const { auth, query } = ctx;
    assertMagicLinkEnabled(auth);
    const live = await findLiveLink(auth, query.token);
    if (!live) {
      const target = query.errorCallbackURL ?? query.callbackURL ?? "/";
      return redirectTo(withQuery(target, { error: "INVALID_TOKEN" }));
    }
    const fields = {
      token: query.token,
      callbackURL: query.callbackURL ?? "/",
      newUserCallbackURL: query.newUserCallbackURL,
      errorCallbackURL: query.errorCallbackURL,
    };
    const { confirmURL } = auth.options.magicLink;
    if (confirmURL) return redirectTo(withQuery(confirmURL, fields));
    const language = (live.record.language && languageOf(live.record.language)) || DEFAULT_LANGUAGE;
    const page = renderConfirmPage(
      language,
      auth.options.appName,
      `${auth.apiURL}/magic-link/verify`,
      fields,
    );
    // No script, no resource: the form posts back here and nowhere else. Never framed: a site that
    // framed its one button under a decoy would get it clicked (clickjacking; X-Frame-Options for
    // browsers without frame-ancestors, docs/passwordless.md "Mail scanners").
    ctx.setHeader(
      "content-security-policy",
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    );
    ctx.setHeader("x-frame-options", "DENY");
    return htmlPage(page);
  },
});
