import { z } from "zod";
import type { AuthContext } from "../../../context.ts";
import type { EngineRequest, EngineResponse } from "../../../http/handler.ts";
import { MAX_PAGE_SIZE } from "../protocol/discovery.ts";
import { type Projection, project } from "../protocol/projection.ts";
import { ScimError, scimReply } from "../protocol/scim-error.ts";
import { isNotModified, withVersion } from "../protocol/versioning.ts";
import { refuseInvalid } from "../users/input.ts";

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

const SEARCH_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:SearchRequest";
const searchBody = z.looseObject({
  schemas: z.array(z.string()).optional(),
  filter: z.string().max(4096).optional(),
  startIndex: z.number().int().optional(),
  count: z.number().int().optional(),
  attributes: z.array(z.string().max(512)).max(100).optional(),
  excludedAttributes: z.array(z.string().max(512)).max(100).optional(),
});

/**
 * A list's parameters: the query string of a GET, or the body of a POST to `.search` (RFC 7644
 * §3.4.3), read as the same parameters.
 */
export async function readListQuery(
  auth: AuthContext,
  request: EngineRequest,
  method: string,
): Promise<URLSearchParams> {
  if (method !== "POST") return new URLSearchParams(request.query);
  const parsed = searchBody.safeParse(await readBody(auth, request));
  if (!parsed.success) throw refuseInvalid(parsed.error);
  const { schemas, filter, startIndex, count, attributes, excludedAttributes } = parsed.data;
  if (schemas && !schemas.includes(SEARCH_SCHEMA))
    throw new ScimError(400, `schemas must include ${SEARCH_SCHEMA}`, "invalidSyntax");
  const query = new URLSearchParams();
  if (filter !== undefined) query.set("filter", filter);
  if (startIndex !== undefined) query.set("startIndex", String(startIndex));
  if (count !== undefined) query.set("count", String(count));
  if (attributes) query.set("attributes", attributes.join(","));
  if (excludedAttributes) query.set("excludedAttributes", excludedAttributes.join(","));
  return query;
}
