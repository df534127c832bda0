import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { sendVerificationEmailEndpoint } from "./endpoints/send-verification-email.ts";
import { verifyEmail } from "./endpoints/verify-email.ts";

export const verificationEndpoints = [sendVerificationEmailEndpoint, verifyEmail] as unknown as AnyEndpoint[];
