import type { AnyEndpoint } from "../../../http/define-endpoint.ts";
import { deleteUser } from "./delete-user.ts";
import { deleteUserCallback } from "./delete-user-callback.ts";

const deletionList = [deleteUser, deleteUserCallback] as const;
export const deletionEndpoints: readonly AnyEndpoint[] = deletionList;
/** The endpoints of this feature, with their types (the keys and signatures of `auth.api`). */
export type DeletionEndpoint = (typeof deletionList)[number];
