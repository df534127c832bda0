import { errorContract } from "../../../contracts/general.ts";
import { defineEndpoint, htmlPage } from "../../../http/define-endpoint.ts";
import { escapeHtml } from "../../../mail/escape-html.ts";

/** a simple page showing the error code from the query (or Unknown) and a link to the app root. */
export const errorPage = defineEndpoint(errorContract, {
  async handler(ctx) {
    const raw =
      typeof ctx.query.error === "string" && ctx.query.error.length > 0 ? ctx.query.error : "Unknown";
    const code = escapeHtml(raw.slice(0, 200));
    const home = escapeHtml(ctx.auth.options.baseURL ? new URL(ctx.auth.options.baseURL).origin + "/" : "/");
    const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(ctx.auth.options.appName)} — error</title></head>
<body><main><h1>Something went wrong</h1><p>Error code: <code>${code}</code></p>
<p><a href="${home}">Back to the application</a></p></main></body></html>`;
    ctx.setHeader("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'");
    return htmlPage(html);
  },
});
