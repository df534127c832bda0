import type { WriteHooks } from "../config/hooks.ts";

/**
 * Runs a `before` hook: returns the (possibly changed) data, or null when the hook refused.
 * Couples with config/hooks.ts (the contract) and every store write that creates or updates.
 */
export async function applyBeforeHook<T extends object>(
  hooks: WriteHooks<T> | undefined,
  data: T,
): Promise<T | null> {
  if (!hooks?.before) return data;
  const result = await hooks.before(data);
  if (result === false) return null;
  return result?.data ? { ...data, ...result.data } : data;
}

export async function applyAfterHook<T>(hooks: WriteHooks<T> | undefined, doc: T): Promise<void> {
  await hooks?.after?.(doc);
}
