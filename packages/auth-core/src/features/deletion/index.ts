import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { deleteUser } from "./endpoints/delete-user.ts";
import { deleteUserCallback } from "./endpoints/delete-user-callback.ts";

export const deletionEndpoints = [deleteUser, deleteUserCallback] as unknown as AnyEndpoint[];
