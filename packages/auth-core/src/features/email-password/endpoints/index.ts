import type { AnyEndpoint } from "../../../http/define-endpoint.ts";
import { signInEmail } from "./sign-in-email.ts";
import { signUpEmail } from "./sign-up-email.ts";

const emailPasswordList = [signUpEmail, signInEmail] as const;
export const emailPasswordEndpoints: readonly AnyEndpoint[] = emailPasswordList;
/** The endpoints of this feature, with their types (the keys and signatures of `auth.api`). */
export type EmailPasswordEndpoint = (typeof emailPasswordList)[number];
