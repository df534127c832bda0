import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { errorPage } from "./endpoints/error.ts";
import { ok } from "./endpoints/ok.ts";

export const generalEndpoints = [ok, errorPage] as unknown as AnyEndpoint[];
