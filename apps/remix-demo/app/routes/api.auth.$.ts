import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getAuth } from "~/auth.server";

// The whole Tessera API under /api/auth/*: one Fetch handler (resource route, no component).
async function handle({ request, context }: LoaderFunctionArgs | ActionFunctionArgs) {
  const auth = await getAuth();
  return auth.handler(request, { remoteAddress: context.remoteAddress ?? null });
}

export const loader = handle;
export const action = handle;
