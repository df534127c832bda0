import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getAuth } from "~/auth.server";

// Everything under /api/auth/*: one Fetch handler (a resource route, no component).
async function handle({ request }: LoaderFunctionArgs | ActionFunctionArgs) {
  return getAuth().handler(request, { remoteAddress: null });
}

export const loader = handle;
export const action = handle;
