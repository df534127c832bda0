/** The face of deletion: what other features may use. */
export { deleteUserAndData, finishInterruptedUserDeletions } from "./service.ts";
