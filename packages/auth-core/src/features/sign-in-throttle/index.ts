/** The face of the per-account sign-in throttle: what other features may call. */
export { readKnownDevice, rememberKnownDevice } from "./known-device.ts";
export {
  admitSignInAttempt,
  clearSignInFailures,
  type SignInRefused,
  type SignInSubject,
} from "./service.ts";
