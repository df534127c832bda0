import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { getSession } from "./endpoints/get-session.ts";
import { signOut } from "./endpoints/sign-out.ts";

export const sessionEndpoints = [getSession, signOut] as unknown as AnyEndpoint[];
