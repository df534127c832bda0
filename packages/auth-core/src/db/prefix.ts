import { escapeRegex } from "./regex.ts";

/**
 * String prefixes as query conditions. A range is what both backends answer from an index: MongoDB
 * as an index range, and our FerretDB build (dev-db ferretdb-patch.ts 2 and 7) as an SQLite index
 * range, where an anchored `$regex` decodes the whole collection.
 */

/**
 * `{$gte: prefix, $lt: prefix with its last character one higher}`: exactly the strings starting
 * with it (MongoDB compares strings by their UTF-8 bytes, which for ASCII is character order). Null
 * when the prefix is empty or not printable ASCII.
 */
export function prefixRange(prefix: string): { $gte: string; $lt: string } | null {
  if (!/^[\x21-\x7d]+$/.test(prefix)) return null;
  const last = prefix.charCodeAt(prefix.length - 1);
  return { $gte: prefix, $lt: prefix.slice(0, -1) + String.fromCharCode(last + 1) };
}

/** The strings starting with `prefix`: its range when it has one, else an anchored `$regex`. */
export function startsWith(prefix: string): { $gte: string; $lt: string } | { $regex: string } {
  return prefixRange(prefix) ?? { $regex: `^${escapeRegex(prefix)}` };
}
