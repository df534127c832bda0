import type { AnyEndpoint } from "../../../http/define-endpoint.ts";
import { exportUserDataEndpoint } from "./export-user-data.ts";

const userExportList = [exportUserDataEndpoint] as const;
export const userExportEndpoints: readonly AnyEndpoint[] = userExportList;
/** The endpoints of this feature, with their types (the keys and signatures of `auth.api`). */
export type UserExportEndpoint = (typeof userExportList)[number];
