import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { changeEmail } from "./endpoints/change-email.ts";
import { updateUserEndpoint } from "./endpoints/update-user.ts";

const accountList = [updateUserEndpoint, changeEmail] as const;
export const accountEndpoints = accountList as unknown as AnyEndpoint[];
/** The `auth.api` method names of this feature. */
export type AccountEndpointName = (typeof accountList)[number]["name"];
