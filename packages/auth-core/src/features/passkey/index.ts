/** The face of passkey: what other features, create-auth.ts and operator.ts may use (endpoints: endpoints/, registered by features/registry.ts). */
export {
  deletePasskeyOfUser,
  deleteUserPasskeyData,
  listUserPasskeys,
} from "./management.ts";
