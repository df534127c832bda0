import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { errorPage } from "./endpoints/error.ts";
import { ok } from "./endpoints/ok.ts";

const generalList = [ok, errorPage] as const;
export const generalEndpoints: readonly AnyEndpoint[] = generalList;
/** The endpoints of this feature, with their types (the keys and signatures of `auth.api`). */
export type GeneralEndpoint = (typeof generalList)[number];
