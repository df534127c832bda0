import type { AnyEndpoint } from "../../http/define-endpoint.ts";

export const verificationEndpoints: AnyEndpoint[] = [];
