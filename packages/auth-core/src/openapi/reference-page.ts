import type { OpenApiDocument, Operation } from "./document.ts";

/**
 * The API reference as one HTML page, rendered here from the OpenAPI document: no script, no font,
 * no stylesheet from elsewhere, so it works with no network access (the response's CSP allows
 * nothing but its own inline style). Each operation is a <details> with its inputs, response schema
 * and errors.
 */
const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

function json(value: unknown): string {
  return `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;
}

function authOf(operation: Operation): string {
  const schemes = operation.security.map((entry) => Object.keys(entry)[0] ?? "none");
  if (schemes.length === 0) return "none";
  return schemes.includes("none") ? "optional: session cookie or API key" : "session cookie or API key";
}

function renderResponse(status: string, response: Record<string, unknown>): string {
  const content = (response.content ?? {}) as Record<
    string,
    { schema?: unknown; examples?: Record<string, { value: { code: string; message: string } }> }
  >;
  const media = Object.values(content)[0];
  if (media?.examples) {
    const rows = Object.values(media.examples)
      .map(
        ({ value }) =>
          `<tr><td><code>${escapeHtml(value.code)}</code></td><td>${escapeHtml(value.message)}</td></tr>`,
      )
      .join("");
    return `<h4>${status}</h4><table><tr><th>code</th><th>message</th></tr>${rows}</table>`;
  }
  const schema = media?.schema ? json(media.schema) : "";
  return `<h4>${status}</h4><p>${escapeHtml(String(response.description ?? ""))}</p>${schema}`;
}

function renderOperation(method: string, path: string, operation: Operation): string {
  const parameters = (operation.parameters ?? [])
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${p.required ? "yes" : "no"}</td><td>${escapeHtml(JSON.stringify(p.schema))}</td></tr>`,
    )
    .join("");
  const body = operation.requestBody as { content: Record<string, { schema: unknown }> } | undefined;
  return `<details id="${escapeHtml(operation.operationId)}"><summary><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code> — ${escapeHtml(operation.summary)}</summary>
<p>Auth: ${authOf(operation)} · operationId <code>${escapeHtml(operation.operationId)}</code></p>
${parameters ? `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>required</th><th>schema</th></tr>${parameters}</table>` : ""}
${body ? `<h4>Request body (JSON)</h4>${json(Object.values(body.content)[0]?.schema)}` : ""}
${Object.entries(operation.responses)
  .map(([status, response]) => renderResponse(status, response))
  .join("\n")}
</details>`;
}

export function renderReferencePage(document: OpenApiDocument): string {
  const info = document.info as { title: string; description: string };
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(methods)) {
      const tag = operation.tags[0] ?? "other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), renderOperation(method, path, operation)]);
    }
  const sections = [...byTag]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([tag, operations]) =>
        `<section><h2 id="tag-${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${operations.join("\n")}</section>`,
    )
    .join("\n");
  const index = [...byTag.keys()]
    .sort()
    .map((tag) => `<a href="#tag-${escapeHtml(tag)}">${escapeHtml(tag)}</a>`)
    .join(" · ");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
details{border:1px solid #ddd;border-radius:6px;margin:.4rem 0;padding:.3rem .6rem}summary{cursor:pointer}
pre{background:#f6f6f6;padding:.5rem;overflow:auto;font-size:13px;max-height:24rem}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:2px 6px;text-align:left}
.m{display:inline-block;width:3.2rem;font-weight:600}.get{color:#0a6}.post{color:#06c}
</style></head><body>
<h1>${escapeHtml(info.title)} reference</h1>
<p>${escapeHtml(info.description)} The machine-readable document: <a href="openapi.json">openapi.json</a>.</p>
<nav>${index}</nav>
${sections}
</body></html>`;
}
