import type { AnyEndpoint } from "../../../http/define-endpoint.ts";
import { changeEmail } from "./change-email.ts";
import { updateUserEndpoint } from "./update-user.ts";

const accountList = [updateUserEndpoint, changeEmail] as const;
export const accountEndpoints: readonly AnyEndpoint[] = accountList;
/** The endpoints of this feature, with their types (the keys and signatures of `auth.api`). */
export type AccountEndpoint = (typeof accountList)[number];
