import type { AuthContext } from "../../../context.ts";
import type { EngineResponse } from "../../../http/handler.ts";
import { listResponse } from "../protocol/discovery.ts";
import { readProjection } from "../protocol/projection.ts";
import { ScimError, scimReply } from "../protocol/scim-error.ts";
import { assertIfMatch, withVersion } from "../protocol/versioning.ts";
import { readPatch, readUserBody } from "../users/input.ts";
import { toScimUser } from "../users/resource.ts";
import {
  createScimUser,
  deleteScimUser,
  findScimUserRecord,
  listScimUsers,
  type ScimUserRecord,
  updateScimUser,
} from "../users/service.ts";
import { answerResource, projectEach, readBody, readListQuery, readPage } from "./request.ts";
import type { ScimCaller, ScimResourceServer } from "./serve.ts";

/**
 * /Users and /Users/:id (RFC 7644 §3.3–§3.6), paths as Better Auth's: POST create, GET one or a list
 * (filter, startIndex, count, attributes), PUT replace, PATCH, DELETE; versions and If-Match
 * (protocol/versioning.ts). Every write is audited as `scim:<token id>`.
 */
export function createUsersServer(auth: AuthContext): ScimResourceServer {
  return async (caller, method, path, request) => {
    const [, collection, id, extra] = path.split("/");
    if (collection !== "Users" || extra !== undefined) return null;
    const projection = readProjection(new URLSearchParams(request.query));
    const resourceOf = (record: ScimUserRecord) => toScimUser(record.user, record.link, caller.location);
    const answer = (status: 200 | 201, record: ScimUserRecord) =>
      answerResource(status, resourceOf(record), request, projection);
    if (id === undefined || id === "") {
      if (method === "GET" || method === "HEAD")
        return listUsers(auth, caller, await readListQuery(auth, request, method));
      if (method === "POST")
        return answer(201, await createScimUser(auth, caller, readUserBody(await readBody(auth, request))));
      throw new ScimError(405, `${method} is not supported on /Users`);
    }
    if (id === ".search") {
      if (method !== "POST") throw new ScimError(405, `${method} is not supported on /Users/.search`);
      return listUsers(auth, caller, await readListQuery(auth, request, method));
    }
    const record = await findScimUserRecord(auth, caller, id);
    if (method === "GET" || method === "HEAD") return answer(200, record);
    if (method !== "PUT" && method !== "PATCH" && method !== "DELETE")
      throw new ScimError(405, `${method} is not supported on /Users/${id}`);
    assertIfMatch(request, withVersion(resourceOf(record)).meta.version);
    if (method === "DELETE") {
      await deleteScimUser(auth, caller, record);
      return scimReply(204, null);
    }
    const body = await readBody(auth, request);
    const changes = method === "PUT" ? readUserBody(body) : readPatch(body);
    return answer(200, await updateScimUser(auth, caller, record, changes));
  };
}

async function listUsers(
  auth: AuthContext,
  caller: ScimCaller,
  query: URLSearchParams,
): Promise<EngineResponse> {
  const page = readPage(query);
  const { records, total } = await listScimUsers(auth, caller, query.get("filter") ?? undefined, page);
  const resources = records.map((record) => toScimUser(record.user, record.link, caller.location));
  return scimReply(200, listResponse(projectEach(resources, readProjection(query)), total, page.startIndex));
}
