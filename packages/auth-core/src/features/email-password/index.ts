import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { signInEmail } from "./endpoints/sign-in-email.ts";
import { signUpEmail } from "./endpoints/sign-up-email.ts";

export const emailPasswordEndpoints = [signUpEmail, signInEmail] as unknown as AnyEndpoint[];
