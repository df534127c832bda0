/** `text` with every regular-expression metacharacter escaped: it then matches only itself. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The pattern of `item` as one entry of a comma-separated list (roles are stored as "admin,member"):
 * `(^|,)\s*item\s*(,|$)`, the item escaped.
 */
export function listItemPattern(item: string): string {
  return `(^|,)\\s*${escapeRegex(item)}\\s*(,|$)`;
}
