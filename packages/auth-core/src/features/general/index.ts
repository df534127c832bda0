import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { errorPage } from "./endpoints/error.ts";
import { ok } from "./endpoints/ok.ts";

const generalList = [ok, errorPage] as const;
export const generalEndpoints = generalList as unknown as AnyEndpoint[];
/** The `auth.api` method names of this feature. */
export type GeneralEndpointName = (typeof generalList)[number]["name"];
