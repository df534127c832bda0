import type { AnyEndpoint } from "../../http/define-endpoint.ts";

export const passwordEndpoints: AnyEndpoint[] = [];
