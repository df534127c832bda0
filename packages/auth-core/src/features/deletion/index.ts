/** The face of deletion: what other features may use. */
export { deleteUserAndData } from "./service.ts";
