const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes text for HTML element content and for quoted attribute values (both quote kinds are
 * escaped, so the result is safe inside `"…"` or `'…'`). It does not make a URL safe to follow: a
 * `javascript:` link survives escaping, so callers check the scheme themselves.
 * Shared with the HTTP error page.
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}
