import type { AuthContext } from "../../../context.ts";
import type { EngineRequest, EngineResponse } from "../../../http/handler.ts";
import { MAX_PAGE_SIZE } from "../protocol/discovery.ts";
import { type Projection, project } from "../protocol/projection.ts";
import { ScimError, scimReply } from "../protocol/scim-error.ts";
import { isNotModified, withVersion } from "../protocol/versioning.ts";

/** What /Users and /Groups read from a request and answer alike. */

export function readBody(auth: AuthContext, request: EngineRequest): Promise<unknown> {
  return request.readBody(auth.options.advanced.maxBodyBytes, false);
}

/** RFC 7644 §3.4.2.4: startIndex below 1 is read as 1; count below 0 as 0, above the maximum as it. */
export function readPage(query: URLSearchParams): { startIndex: number; count: number } {
  const startIndex = readInteger(query.get("startIndex"), 1, "startIndex");
  const count = Math.min(readInteger(query.get("count"), MAX_PAGE_SIZE, "count"), MAX_PAGE_SIZE);
  return { startIndex: Math.max(startIndex, 1), count: Math.max(count, 0) };
}

function readInteger(value: string | null, fallback: number, name: string): number {
  if (value === null) return fallback;
  if (!/^-?\d{1,9}$/.test(value)) throw new ScimError(400, `${name} must be an integer`, "invalidValue");
  return Number(value);
}

/**
 * One resource: its version in `meta.version` and the ETag header (RFC 7644 §3.14), the requested
 * attributes only, Location on 201; a GET whose If-None-Match names the version is 304.
 */
export function answerResource(
  status: 200 | 201,
  resource: { meta: Record<string, unknown> & { location: string } },
  request: EngineRequest,
  projection: Projection,
): EngineResponse {
  const versioned = withVersion(resource);
  const headers: Record<string, string> = { etag: versioned.meta.version };
  if (status === 201) headers.location = versioned.meta.location;
  if (request.method === "GET" && isNotModified(request, versioned.meta.version))
    return scimReply(304, null, headers);
  return scimReply(status, project(versioned, projection), headers);
}

/** A list's resources, each with its version, the requested attributes only. */
export function projectEach(
  resources: readonly { meta: Record<string, unknown> }[],
  projection: Projection,
): unknown[] {
  return resources.map((resource) => project(withVersion(resource), projection));
}
