import { createHash } from "node:crypto";
import type { OpenApiDocument, Operation } from "./document.ts";
import type { JsonSchema } from "./json-schema.ts";

/**
 * The API reference as one HTML page, rendered here from the OpenAPI document: no script, font or
 * stylesheet from elsewhere, so it works with no network access. Each operation is a <details> with
 * its inputs, response and errors; each model a table of its properties; a search box filters the
 * operations with the page's one inline script, which the CSP admits by its hash and nothing else.
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

/** Hides the operations (and emptied sections) whose method, path, summary or tag miss the query. */
const FILTER_SCRIPT = `const box=document.getElementById("filter");box.addEventListener("input",()=>{const q=box.value.trim().toLowerCase();for(const op of document.querySelectorAll("details[data-search]"))op.hidden=q!==""&&!op.dataset.search.includes(q);for(const s of document.querySelectorAll("section[data-tag]"))s.hidden=!s.querySelector("details[data-search]:not([hidden])")});`;

/** CSP of the page (docs/security.md "Response headers"): its inline style, its one script by hash. */
export const REFERENCE_PAGE_CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${createHash("sha256").update(FILTER_SCRIPT).digest("base64")}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const MODEL_REF = "#/components/schemas/";

function modelLink(ref: string): string {
  const name = ref.slice(MODEL_REF.length);
  return `<a href="#model-${escapeHtml(name)}">${escapeHtml(name)}</a>`;
}

/** A schema's type in a few words: `string (date-time) | null`, `array of User`, a model link. */
function typeOf(schema: JsonSchema): string {
  if (typeof schema.$ref === "string") return modelLink(schema.$ref);
  if (schema.const !== undefined) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
  if (Array.isArray(schema.enum))
    return schema.enum.length > 8
      ? `string (${schema.enum.length} values)`
      : schema.enum.map((value) => `<code>${escapeHtml(JSON.stringify(value))}</code>`).join(" | ");
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants) return variants.map(typeOf).join(" | ");
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type ?? "any"];
  return types
    .map((type) => {
      if (type === "array") return `array of ${typeOf((schema.items ?? {}) as JsonSchema)}`;
      if (type === "object" && !schema.properties && schema.additionalProperties)
        return `map of ${typeOf(schema.additionalProperties as JsonSchema)}`;
      return escapeHtml(String(type)) + (schema.format ? ` (${escapeHtml(String(schema.format))})` : "");
    })
    .join(" | ");
}

/** Examples for the field names the API shares (ids are 24 hex characters, docs/architecture.md). */
function exampleByName(name: string, schema: JsonSchema): unknown {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (!types.includes("string")) return types.includes("boolean") ? true : undefined;
  if (name === "id" || /Id$/.test(name)) return "6650f1c2e4b0a1b2c3d4e5f6";
  if (/email$/i.test(name)) return "ada@example.com";
  if (/URL$|^image$|^logo$/.test(name)) return "https://app.example.com/welcome";
  return undefined;
}

/** An example value: the schema's own, else one its constraints or its name make obvious. */
function exampleOf(name: string, schema: JsonSchema): string {
  const given = (schema.examples as unknown[] | undefined)?.[0] ?? schema.example ?? schema.default;
  const value =
    given ??
    schema.const ??
    (Array.isArray(schema.enum) ? schema.enum[0] : undefined) ??
    (schema.format === "date-time" ? "2026-01-31T12:00:00.000Z" : undefined) ??
    exampleByName(name, schema);
  return value === undefined ? "" : `<code>${escapeHtml(JSON.stringify(value))}</code>`;
}

const SAFE = Number.MAX_SAFE_INTEGER;

/** What a schema constrains, for the description column. */
function constraintsOf(schema: JsonSchema): string {
  const parts = [
    typeof schema.description === "string" ? schema.description : "",
    schema.minLength !== undefined ? `min length ${schema.minLength}` : "",
    schema.maxLength !== undefined ? `max length ${schema.maxLength}` : "",
    // zod bounds every integer by the safe range: only a bound of the API's own is worth a word.
    schema.minimum !== undefined && Math.abs(Number(schema.minimum)) < SAFE ? `≥ ${schema.minimum}` : "",
    schema.maximum !== undefined && Math.abs(Number(schema.maximum)) < SAFE ? `≤ ${schema.maximum}` : "",
    typeof schema.pattern === "string" ? `pattern ${schema.pattern}` : "",
  ];
  return escapeHtml(parts.filter(Boolean).join("; "));
}

const PROPERTY_HEAD =
  "<tr><th>name</th><th>type</th><th>required</th><th>description</th><th>example</th></tr>";

/** A schema as a property table (objects), a model link, or a type line. */
function renderSchema(schema: JsonSchema): string {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (!properties) return `<p>${typeOf(schema)}</p>`;
  const required = new Set((schema.required ?? []) as string[]);
  const rows = Object.entries(properties)
    .map(
      ([name, property]) =>
        `<tr><td><code>${escapeHtml(name)}</code></td><td>${typeOf(property)}</td><td>${required.has(name) ? "yes" : "no"}</td><td>${constraintsOf(property)}</td><td>${exampleOf(name, property)}</td></tr>`,
    )
    .join("");
  return `<table>${PROPERTY_HEAD}${rows}</table>`;
}

type Schemes = Record<string, { in: string; name: string }>;

/** Who may call, in words: "none", or the cookies and headers that will do, "optional" first when none is needed. */
function authOf(operation: Operation, schemes: Schemes): string {
  if (operation.security.length === 0) return "none";
  const ways = operation.security.map((entry) => Object.keys(entry)[0] ?? "none");
  const named = ways
    .filter((way) => way !== "none")
    .map((way) => (schemes[way] ? `${schemes[way].in} ${schemes[way].name}` : way))
    .join(" or ");
  return ways.includes("none") ? `optional: ${named}` : named;
}

function renderResponse(status: string, response: Record<string, unknown>): string {
  const content = (response.content ?? {}) as Record<
    string,
    { schema?: JsonSchema; examples?: Record<string, { value: { code: string; message: string } }> }
  >;
  const media = Object.values(content)[0];
  const headers = Object.keys((response.headers ?? {}) as object);
  const headerLine = headers.length > 0 ? ` · headers: ${headers.map(escapeHtml).join(", ")}` : "";
  if (media?.examples) {
    const rows = Object.values(media.examples)
      .map(
        ({ value }) =>
          `<tr><td><code>${escapeHtml(value.code)}</code></td><td>${escapeHtml(value.message)}</td></tr>`,
      )
      .join("");
    return `<h4>${status}${headerLine}</h4><table class="errors"><tr><th>code</th><th>message</th></tr>${rows}</table>`;
  }
  const schema = media?.schema ? renderSchema(media.schema) : "";
  return `<h4>${status}${headerLine}</h4><p>${escapeHtml(String(response.description ?? ""))}</p>${schema}`;
}

function renderOperation(method: string, path: string, operation: Operation, schemes: Schemes): string {
  const parameters = (operation.parameters ?? [])
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${typeOf(p.schema)}</td><td>${p.required ? "yes" : "no"}</td><td>${constraintsOf(p.schema)}</td></tr>`,
    )
    .join("");
  const body = operation.requestBody as { content: Record<string, { schema: JsonSchema }> } | undefined;
  const bodySchema = body ? Object.values(body.content)[0]?.schema : undefined;
  const search = [method, path, operation.summary, operation.operationId, ...operation.tags]
    .join(" ")
    .toLowerCase();
  return `<details id="${escapeHtml(operation.operationId)}" data-search="${escapeHtml(search)}"><summary><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code> — ${escapeHtml(operation.summary)}</summary>
<p>Auth: ${escapeHtml(authOf(operation, schemes))} · operationId <code>${escapeHtml(operation.operationId)}</code></p>
${parameters ? `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>type</th><th>required</th><th>description</th></tr>${parameters}</table>` : ""}
${bodySchema ? `<h4>Request body (JSON)</h4>${renderSchema(bodySchema)}` : ""}
${Object.entries(operation.responses)
  .map(([status, response]) => renderResponse(status, response))
  .join("\n")}
</details>`;
}

function renderModels(document: OpenApiDocument): string {
  const schemas = ((document.components as { schemas?: Record<string, JsonSchema> })?.schemas ??
    {}) as Record<string, JsonSchema>;
  return Object.entries(schemas)
    .map(
      ([name, schema]) =>
        `<section class="model" id="model-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>${renderSchema(schema)}</section>`,
    )
    .join("\n");
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:64rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
details{border:1px solid #ddd;border-radius:6px;margin:.4rem 0;padding:.3rem .6rem}summary{cursor:pointer}
table{border-collapse:collapse;font-size:13px;margin:.3rem 0;width:100%}td,th{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}
th{background:#f6f6f6}td:first-child{white-space:nowrap}h4{margin:.8rem 0 .2rem}
.m{display:inline-block;width:3.2rem;font-weight:600}.get{color:#0a6}.post{color:#06c}
#filter{width:100%;box-sizing:border-box;font:inherit;padding:.4rem .6rem;margin:.6rem 0;border:1px solid #bbb;border-radius:6px}
table.errors{width:auto}nav{line-height:1.9}.model{margin:1rem 0}.model h3{margin:.2rem 0}[hidden]{display:none}`;

export function renderReferencePage(document: OpenApiDocument): string {
  const info = document.info as { title: string; description: string };
  const schemes = ((document.components as { securitySchemes?: Schemes })?.securitySchemes ?? {}) as Schemes;
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(methods)) {
      const tag = operation.tags[0] ?? "other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), renderOperation(method, path, operation, schemes)]);
    }
  const tags = [...byTag.keys()].sort((a, b) => a.localeCompare(b));
  const sections = tags
    .map(
      (tag) =>
        `<section data-tag="${escapeHtml(tag)}"><h2 id="tag-${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${byTag.get(tag)!.join("\n")}</section>`,
    )
    .join("\n");
  const index = tags.map((tag) => `<a href="#tag-${escapeHtml(tag)}">${escapeHtml(tag)}</a>`).join(" · ");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} reference</title>
<style>
${STYLE}
</style></head><body>
<h1>${escapeHtml(info.title)} reference</h1>
<p>${escapeHtml(info.description)} The machine-readable document: <a href="openapi.json">openapi.json</a>.</p>
<nav>${index} · <a href="#models">models</a></nav>
<input type="search" id="filter" placeholder="Filter operations: path, summary, tag…" aria-label="Filter operations">
<main>
${sections}
<h2 id="models">Models</h2>
${renderModels(document)}
</main>
<script>${FILTER_SCRIPT}</script>
</body></html>`;
}
