import type { AnyEndpoint } from "../../http/define-endpoint.ts";

export const accountEndpoints: AnyEndpoint[] = [];
