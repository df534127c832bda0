import type { AnyEndpoint } from "../../../http/define-endpoint.ts";
import { errorPage } from "./error.ts";
import { ok } from "./ok.ts";

const generalList = [ok, errorPage] as const;
export const generalEndpoints: readonly AnyEndpoint[] = generalList;
/** The endpoints of this feature, with their types (the keys and signatures of `auth.api`). */
export type GeneralEndpoint = (typeof generalList)[number];
