import type { AuthContext } from "../../../context.ts";
import type { EngineResponse } from "../../../http/handler.ts";
import { listTeamMembers } from "../../organization/index.ts";
import { readGroupBody, readGroupPatch } from "../groups/input.ts";
import { listScimGroups } from "../groups/list.ts";
import { toScimGroup } from "../groups/resource.ts";
import {
  createScimGroup,
  deleteScimGroup,
  findScimGroupRecord,
  MAX_GROUP_MEMBERS,
  type ScimGroupRecord,
  updateScimGroup,
} from "../groups/service.ts";
import { listResponse } from "../protocol/discovery.ts";
import { isExcluded, readProjection } from "../protocol/projection.ts";
import { ScimError, scimReply } from "../protocol/scim-error.ts";
import { assertIfMatch, withVersion } from "../protocol/versioning.ts";
import { answerResource, projectEach, readBody, readListQuery, readPage } from "./request.ts";
import type { ScimCaller, ScimResourceServer } from "./serve.ts";

/**
 * /Groups and /Groups/:id (RFC 7644 §3.3–§3.6) over the organization's teams (features/scim/groups):
 * POST create, GET one or a list (filter, startIndex, count, attributes — `excludedAttributes=members`
 * skips reading them), PUT replace, PATCH, DELETE; versions and If-Match as /Users. Teams must be on
 * (`organization.teams.enabled`): otherwise there is no /Groups (404) and discovery lists no Group.
 */
export function createGroupsServer(auth: AuthContext): ScimResourceServer {
  return async (caller, method, path, request) => {
    const [, collection, id, extra] = path.split("/");
    if (collection !== "Groups" || extra !== undefined) return null;
    if (!auth.options.organization.teams.enabled) throw new ScimError(404, "Resource not found");
    const projection = readProjection(new URLSearchParams(request.query));
    const answer = (status: 200 | 201, record: ScimGroupRecord) =>
      answerResource(status, resourceOf(caller, record), request, projection);
    if (id === undefined || id === "") {
      if (method === "GET" || method === "HEAD")
        return listGroups(auth, caller, await readListQuery(auth, request, method));
      if (method === "POST")
        return answer(201, await createScimGroup(auth, caller, readGroupBody(await readBody(auth, request))));
      throw new ScimError(405, `${method} is not supported on /Groups`);
    }
    if (id === ".search") {
      if (method !== "POST") throw new ScimError(405, `${method} is not supported on /Groups/.search`);
      return listGroups(auth, caller, await readListQuery(auth, request, method));
    }
    const record = await findScimGroupRecord(auth, caller, id);
    if (method === "GET" || method === "HEAD") return answer(200, record);
    if (method !== "PUT" && method !== "PATCH" && method !== "DELETE")
      throw new ScimError(405, `${method} is not supported on /Groups/${id}`);
    assertIfMatch(request, withVersion(resourceOf(caller, record)).meta.version);
    if (method === "DELETE") {
      await deleteScimGroup(auth, caller, record);
      return scimReply(204, null);
    }
    const body = await readBody(auth, request);
    const changes = method === "PUT" ? readGroupBody(body) : readGroupPatch(body);
    const updated = await updateScimGroup(auth, caller, record, changes);
    // RFC 7644 §3.5.2: a PATCH may answer 204; Entra and Okta accept both. The resource is sent.
    return answer(200, updated);
  };
}

function resourceOf(caller: ScimCaller, record: ScimGroupRecord) {
  return toScimGroup(record.group, record.team, record.members, caller.location);
}

async function listGroups(
  auth: AuthContext,
  caller: ScimCaller,
  query: URLSearchParams,
): Promise<EngineResponse> {
  const page = readPage(query);
  const projection = readProjection(query);
  const { rows, total } = await listScimGroups(auth, caller, query.get("filter") ?? undefined, page);
  const withMembers = !isExcluded(projection, "members");
  const resources = [];
  for (const row of rows) {
    const members = withMembers ? await listTeamMembers(auth, row.team._id, MAX_GROUP_MEMBERS, 0) : [];
    resources.push(resourceOf(caller, { ...row, members }));
  }
  return scimReply(200, listResponse(projectEach(resources, projection), total, page.startIndex));
}
