/** The face of user-export: the operator entry (`tessera export --user`) builds the same export as the endpoint. */
export { exportUserDataByEmail } from "./service.ts";
