import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { deleteUser } from "./endpoints/delete-user.ts";
import { deleteUserCallback } from "./endpoints/delete-user-callback.ts";

const deletionList = [deleteUser, deleteUserCallback] as const;
export const deletionEndpoints = deletionList as unknown as AnyEndpoint[];
/** The `auth.api` method names of this feature. */
export type DeletionEndpointName = (typeof deletionList)[number]["name"];
