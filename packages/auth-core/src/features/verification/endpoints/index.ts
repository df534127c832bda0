import type { AnyEndpoint } from "../../../http/define-endpoint.ts";
import { sendVerificationEmailEndpoint } from "./send-verification-email.ts";
import { verifyEmail } from "./verify-email.ts";

const verificationList = [sendVerificationEmailEndpoint, verifyEmail] as const;
export const verificationEndpoints: readonly AnyEndpoint[] = verificationList;
/** The endpoints of this feature, with their types (the keys and signatures of `auth.api`). */
export type VerificationEndpoint = (typeof verificationList)[number];
