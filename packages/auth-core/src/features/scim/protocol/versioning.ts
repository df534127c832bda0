import { createHash } from "node:crypto";
import type { EngineRequest } from "../../../http/handler.ts";
import { ScimError } from "./scim-error.ts";

/**
 * Resource versions (RFC 7644 §3.14): `meta.version` is a weak entity tag, a hash of everything
 * else the resource says — so a change made anywhere (the directory, the app, another token) gives
 * a new version, and nothing is stored. Sent as the ETag header of every answer carrying one
 * resource; a stale `If-Match` is refused with 412 before anything is written.
 */

interface Versioned {
  meta: Record<string, unknown>;
}

/** The resource with `meta.version` set. */
export function withVersion<T extends Versioned>(resource: T): T & { meta: { version: string } } {
  const { version: _, ...meta } = resource.meta;
  const digest = createHash("sha256")
    .update(JSON.stringify({ ...resource, meta }))
    .digest("base64url")
    .slice(0, 22);
  return { ...resource, meta: { ...meta, version: `W/"${digest}"` } } as T & { meta: { version: string } };
}

/** The opaque part of an entity tag, weak or strong (RFC 9110 §8.8.3: compared weakly here). */
function opaque(tag: string): string {
  return tag.trim().replace(/^W\//, "");
}

/** The request's conditions against the current version: 412 when `If-Match` names another. */
export function assertIfMatch(request: EngineRequest, version: string): void {
  const header = request.headers.get("if-match");
  if (header === null) return;
  const tags = header.split(",").map((tag) => tag.trim());
  if (tags.includes("*") || tags.some((tag) => opaque(tag) === opaque(version))) return;
  throw new ScimError(412, "The resource has changed since that version: read it again");
}

/** GET with `If-None-Match` naming the current version: nothing changed (304). */
export function isNotModified(request: EngineRequest, version: string): boolean {
  const header = request.headers.get("if-none-match");
  if (header === null) return false;
  const tags = header.split(",").map((tag) => tag.trim());
  return tags.includes("*") || tags.some((tag) => opaque(tag) === opaque(version));
}
