import { createHash } from "node:crypto";
import type { DeclaredScimConnection } from "../../../config/scim-options.ts";
import type { AuthContext } from "../../../context.ts";
import { sha256Base64Url } from "../../../crypto/random.ts";
import { ObjectId } from "../../../db/ids.ts";
import { isAuthError } from "../../../errors/auth-error.ts";
import type { EngineRequest, EngineResponse, MountedProtocol } from "../../../http/handler.ts";
import type { RateLimiter, RateLimitRule } from "../../../http/rate-limit.ts";
import { findOrganization, findOrganizationBySlug, teamRoleTablesOf } from "../../organization/index.ts";
import { answerDiscovery } from "../protocol/discovery.ts";
import { ScimError, type ScimType, scimErrorReply, scimReply } from "../protocol/scim-error.ts";
import { findScimConnection } from "../tokens/service.ts";

/**
 * The SCIM 2.0 service provider under `<basePath>/scim/v2` (docs/security.md "SCIM"), mounted into
 * the HTTP engine by create-auth.ts. A request is authenticated by its organization's bearer token
 * only: cookies and API keys are never read, so a browser session can never act as the directory.
 */

/** The directory a request acts as: its organization, and the token to audit (`scim:<token id>`). */
export interface ScimCaller {
  organizationId: ObjectId;
  tokenId: ObjectId;
  /** The audit actor (docs/security.md "SCIM"). */
  actor: string;
  ip: string | null;
  userAgent: string | null;
  /** The absolute or base-path-relative URL of `/scim/v2`, for `meta.location`. */
  location: string;
}

/** Serves what is under /Users or /Groups; null: not its resource path. */
export type ScimResourceServer = (
  caller: ScimCaller,
  method: string,
  path: string,
  request: EngineRequest,
) => Promise<EngineResponse | null>;

const SCIM_PREFIX = "/scim/v2";

/**
 * Each token's budget (docs/security.md "SCIM"): an identity provider's initial sync comes in bursts,
 * from many addresses, so the count is per token, not per address. `rateLimit.customRules["/scim/v2"]`
 * replaces it (false: none).
 */
const SCIM_RATE_LIMIT: RateLimitRule = { window: 60, max: 600 };

export function createScimProtocol(
  auth: AuthContext,
  limiter: RateLimiter,
  resources: ScimResourceServer,
): MountedProtocol {
  const location = `${auth.options.baseURL ?? ""}${auth.options.basePath}${SCIM_PREFIX}`;
  const teamRoles = auth.options.organization.teams.enabled ? Object.keys(teamRoleTablesOf(auth).team) : null;
  const declared = new Map(auth.options.scim.connections.map((c) => [sha256Base64Url(c.token), c] as const));
  return {
    prefix: SCIM_PREFIX,
    async serve(request, path, ip) {
      try {
        const caller = await authenticate(auth, declared, request, ip, location);
        const retryAfter = await hitTokenBudget(auth, limiter, caller);
        if (retryAfter !== null) {
          const refused = scimErrorReply(
            new ScimError(429, `Too many requests for this token: retry in ${retryAfter} seconds`, "tooMany"),
          );
          return { ...refused, headers: { ...refused.headers, "retry-after": String(retryAfter) } };
        }
        // RFC 7644 §3.4.3: searching every resource type at once is optional; /Users/.search and
        // /Groups/.search are served.
        if (path === "/.search") throw new ScimError(501, "Search across resource types is not supported");
        const served = await resources(caller, request.method, path, request);
        if (served) return served;
        const document = answerDiscovery(path, location, teamRoles);
        if (!document) throw new ScimError(404, "Resource not found");
        if (request.method !== "GET" && request.method !== "HEAD")
          throw new ScimError(405, `${request.method} is not supported on ${path}`);
        return scimReply(200, document);
      } catch (error) {
        return answerFailure(auth, error);
      }
    },
  };
}

async function authenticate(
  auth: AuthContext,
  declared: ReadonlyMap<string, DeclaredScimConnection>,
  request: EngineRequest,
  ip: string | null,
  location: string,
): Promise<ScimCaller> {
  const header = request.headers.get("authorization") ?? "";
  const token = /^Bearer ([\x21-\x7e]{1,256})$/i.exec(header.trim())?.[1] ?? null;
  const caller = { ip, userAgent: request.headers.get("user-agent"), location };
  const connection = token ? await findScimConnection(auth, token) : null;
  // An organization deleted since keeps no directory (its token rows are left; none answers).
  if (connection && (await findOrganization(auth, connection.organizationId)))
    return {
      ...caller,
      organizationId: connection.organizationId,
      tokenId: connection._id,
      actor: `scim:${connection._id.toHexString()}`,
    };
  // Declared connections are found by the token's hash too: the lookup's timing depends only on it.
  const named = token ? declared.get(sha256Base64Url(token)) : undefined;
  const organization = named ? await findOrganizationBySlug(auth, named.organization) : null;
  if (!named || !organization) throw new ScimError(401, "A valid SCIM bearer token is required");
  return {
    ...caller,
    organizationId: organization._id,
    tokenId: declaredTokenId(named.id),
    actor: `scim:${named.id}`,
  };
}

/** Null when admitted, else the whole seconds to wait (the engine's limiter and storage). */
async function hitTokenBudget(
  auth: AuthContext,
  limiter: RateLimiter,
  caller: ScimCaller,
): Promise<number | null> {
  const { rateLimit } = auth.options;
  if (!rateLimit.enabled) return null;
  const custom = rateLimit.customRules[SCIM_PREFIX];
  const rule = custom === undefined ? SCIM_RATE_LIMIT : custom;
  if (rule === false) return null;
  const decision = await limiter.hit(`scim:${caller.tokenId.toHexString()}|${SCIM_PREFIX}`, rule, auth.now());
  return decision.allowed ? null : decision.retryAfterSeconds;
}

/** A declared connection's stable id where a token id is stored (scimUsers.tokenId). */
function declaredTokenId(id: string): ObjectId {
  return new ObjectId(createHash("sha256").update(`scim-connection:${id}`).digest("hex").slice(0, 24));
}

/** Catalogue errors of the engine (body too large, not JSON, unsupported type) in the SCIM schema. */
function answerFailure(auth: AuthContext, error: unknown): EngineResponse {
  if (error instanceof ScimError) return scimErrorReply(error);
  if (isAuthError(error) && error.status < 500) {
    const scimType: ScimType | null = error.status === 400 ? "invalidSyntax" : null;
    return scimErrorReply(new ScimError(error.status, error.message, scimType));
  }
  auth.options.logger.error("SCIM request failed", error);
  return scimErrorReply(new ScimError(500, "Internal server error"));
}
