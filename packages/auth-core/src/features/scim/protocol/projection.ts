import { TEAM_EXTENSION_URN } from "./discovery.ts";
import { ScimError } from "./scim-error.ts";

/**
 * `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5, §3.9) on a resource's top-level
 * attributes, names compared in any case; `schemas`, `id` and `meta` are always returned (RFC 7643
 * §2.2 "returned: always"). Sub-attribute paths (`name.givenName`) keep their whole parent.
 */

const ALWAYS = new Set(["schemas", "id", "meta"]);

export interface Projection {
  only: Set<string> | null;
  without: Set<string>;
}

export function readProjection(query: URLSearchParams): Projection {
  const names = (value: string | null) =>
    value === null
      ? null
      : new Set(
          value
            .split(",")
            .map((name) => name.trim())
            .filter(Boolean)
            .map(topLevelName),
        );
  return {
    only: names(query.get("attributes")),
    without: names(query.get("excludedAttributes")) ?? new Set(),
  };
}

/** `urn:…:User:name.givenName` → `name`, lower-cased. */
function topLevelName(path: string): string {
  if (path.length > 512) throw new ScimError(400, "Attribute path too long", "invalidValue");
  const lower = path.toLowerCase();
  // The extension, or one of its attributes, names the extension's object in the resource.
  const extension = TEAM_EXTENSION_URN.toLowerCase();
  if (lower.startsWith(extension)) return extension;
  const attribute = lower.startsWith("urn:") ? lower.slice(lower.lastIndexOf(":") + 1) : lower;
  return attribute.split(".")[0]!;
}

/** Whether an attribute (`members`) is left out of the answer: its reads can be skipped. */
export function isExcluded(projection: Projection, name: string): boolean {
  const key = name.toLowerCase();
  if (ALWAYS.has(key)) return false;
  if (projection.only) return !projection.only.has(key);
  return projection.without.has(key);
}

export function project<T extends Record<string, unknown>>(resource: T, projection: Projection): Partial<T> {
  if (!projection.only && projection.without.size === 0) return resource;
  return Object.fromEntries(
    Object.entries(resource).filter(([key]) => !isExcluded(projection, key)),
  ) as Partial<T>;
}
