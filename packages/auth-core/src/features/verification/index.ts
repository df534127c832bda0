import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { sendVerificationEmailEndpoint } from "./endpoints/send-verification-email.ts";
import { verifyEmail } from "./endpoints/verify-email.ts";

const verificationList = [sendVerificationEmailEndpoint, verifyEmail] as const;
export const verificationEndpoints = verificationList as unknown as AnyEndpoint[];
/** The `auth.api` method names of this feature. */
export type VerificationEndpointName = (typeof verificationList)[number]["name"];
