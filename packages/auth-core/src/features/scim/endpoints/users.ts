import type { AuthContext } from "../../../context.ts";
import type { EngineRequest, EngineResponse } from "../../../http/handler.ts";
import { listResponse, MAX_PAGE_SIZE } from "../protocol/discovery.ts";
import { ScimError, scimReply } from "../protocol/scim-error.ts";
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
import type { ScimCaller, ScimResourceServer } from "./serve.ts";

/**
 * /Users and /Users/:id (RFC 7644 §3.3–§3.6), paths as Better Auth's: POST create, GET one or a list
 * (filter, startIndex, count), PUT replace, PATCH, DELETE. Every write is audited as `scim:<token id>`.
 */
export function createUsersServer(auth: AuthContext): ScimResourceServer {
  return async (caller, method, path, request) => {
    const [, collection, id, extra] = path.split("/");
    if (collection !== "Users" || extra !== undefined) return null;
    const answer = (status: number, record: ScimUserRecord) =>
      scimReply(
        status,
        toScimUser(record.user, record.link, caller.location),
        status === 201 ? { location: `${caller.location}/Users/${record.user._id.toHexString()}` } : {},
      );
    if (id === undefined || id === "") {
      if (method === "GET" || method === "HEAD") return listUsers(auth, caller, request);
      if (method === "POST")
        return answer(201, await createScimUser(auth, caller, readUserBody(await readBody(auth, request))));
      throw new ScimError(405, `${method} is not supported on /Users`);
    }
    const record = await findScimUserRecord(auth, caller, id);
    switch (method) {
      case "GET":
      case "HEAD":
        return answer(200, record);
      case "PUT": {
        const body = readUserBody(await readBody(auth, request));
        return answer(200, await updateScimUser(auth, caller, record, body));
      }
      case "PATCH":
        return answer(
          200,
          await updateScimUser(auth, caller, record, readPatch(await readBody(auth, request))),
        );
      case "DELETE":
        await deleteScimUser(auth, caller, record);
        return scimReply(204, null);
      default:
        throw new ScimError(405, `${method} is not supported on /Users/${id}`);
    }
  };
}

function readBody(auth: AuthContext, request: EngineRequest): Promise<unknown> {
  return request.readBody(auth.options.advanced.maxBodyBytes, false);
}

async function listUsers(
  auth: AuthContext,
  caller: ScimCaller,
  request: EngineRequest,
): Promise<EngineResponse> {
  const query = new URLSearchParams(request.query);
  const startIndex = readInteger(query.get("startIndex"), 1, "startIndex");
  // RFC 7644 §3.4.2.4: startIndex below 1 is read as 1; count below 0 as 0, above the maximum as it.
  const count = Math.min(readInteger(query.get("count"), MAX_PAGE_SIZE, "count"), MAX_PAGE_SIZE);
  const filter = query.get("filter") ?? undefined;
  const { records, total } = await listScimUsers(auth, caller, filter, {
    startIndex: Math.max(startIndex, 1),
    count: Math.max(count, 0),
  });
  const resources = records.map((record) => toScimUser(record.user, record.link, caller.location));
  return scimReply(200, listResponse(resources, total, Math.max(startIndex, 1)));
}

function readInteger(value: string | null, fallback: number, name: string): number {
  if (value === null) return fallback;
  if (!/^-?\d{1,9}$/.test(value)) throw new ScimError(400, `${name} must be an integer`, "invalidValue");
  return Number(value);
}
