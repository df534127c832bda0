import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { changeEmail } from "./endpoints/change-email.ts";
import { updateUserEndpoint } from "./endpoints/update-user.ts";

export const accountEndpoints = [updateUserEndpoint, changeEmail] as unknown as AnyEndpoint[];
