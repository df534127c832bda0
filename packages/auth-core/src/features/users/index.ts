/** The face of users for other features (users has no endpoints of its own). */
export { findUserByEmail } from "./store.ts";
