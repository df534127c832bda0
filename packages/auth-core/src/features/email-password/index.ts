import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { signInEmail } from "./endpoints/sign-in-email.ts";
import { signUpEmail } from "./endpoints/sign-up-email.ts";

const emailPasswordList = [signUpEmail, signInEmail] as const;
export const emailPasswordEndpoints = emailPasswordList as unknown as AnyEndpoint[];
/** The `auth.api` method names of this feature. */
export type EmailPasswordEndpointName = (typeof emailPasswordList)[number]["name"];
