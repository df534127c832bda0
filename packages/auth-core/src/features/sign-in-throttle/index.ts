/** The face of the per-account sign-in throttle: what other features may call. */
export { readKnownDevice, rememberKnownDevice } from "./known-device.ts";
export {
  admitSignInAttempt,
  checkSignInThrottle,
  clearNewDeviceFailures,
  clearSignInFailures,
  recordSignInFailure,
  type SignInRefused,
} from "./service.ts";
