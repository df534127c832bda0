/** The request field schemas live with the contracts (contracts/social-fields.ts). */
export type { IdTokenInput } from "../../contracts/social-fields.ts";
