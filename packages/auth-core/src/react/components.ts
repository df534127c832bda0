import { createElement, Fragment, type ReactNode } from "react";
import { holdsRole } from "../client/role-permission.ts";
import type { SessionAndUser } from "../contracts/models.ts";
import type { HookState } from "./use-store.ts";

/** The role check the components use: the client's `organization.checkRolePermission`. */
type CheckRolePermission = (query: {
  role: string;
  permissions: Readonly<Record<string, readonly string[]>>;
}) => boolean;

export interface SignedStateProps {
  children?: ReactNode;
  /** The session the server read for this page, as `useSession` takes it. */
  initialSession?: SessionAndUser | null;
}

export interface ProtectProps {
  children?: ReactNode;
  /** Shown instead when the caller is signed out or lacks the role or permission. @default nothing */
  fallback?: ReactNode;
  /** A role the caller must hold in the active organization (one of their comma separated roles). */
  role?: string;
  /** resource → actions the caller's role in the active organization must grant. */
  permission?: Readonly<Record<string, readonly string[]>>;
}

export interface AuthComponents {
  /** Its children once the session is known and someone is signed in; nothing otherwise. */
  SignedIn(props: SignedStateProps): ReactNode;
  /** Its children once the session is known and nobody is signed in; nothing otherwise. */
  SignedOut(props: SignedStateProps): ReactNode;
  /**
   * Its children when the caller is signed in and, in the active organization, holds `role` and
   * has `permission`; `fallback` when not; nothing while either is still being read. It only
   * shapes the page: the core checks every call itself.
   */
  Protect(props: ProtectProps): ReactNode;
}

/** null while the session is still being read. */
function isSignedIn(session: HookState<SessionAndUser>): boolean | null {
  return session.isPending ? null : session.data !== null;
}

function show(children: ReactNode): ReactNode {
  return createElement(Fragment, null, children);
}

/**
 * The components of one client: `const { SignedIn, SignedOut, Protect } = createAuthComponents(authClient)`
 * once, beside the client (never during a render, so each keeps its identity and React keeps the
 * subtree). A separate export, so a bundle that does not use them does not carry them.
 */
export function createAuthComponents(client: {
  useSession(initialData?: SessionAndUser | null): HookState<SessionAndUser>;
  useActiveMemberRole(): HookState<{ role: string }>;
  organization: { checkRolePermission: CheckRolePermission };
}): AuthComponents {
  const hooks = { ...client, checkRolePermission: client.organization.checkRolePermission };
  // biome-ignore lint/correctness/noComponentHookFactories: made once per client, like its hooks
  const SignedIn = (props: SignedStateProps) =>
    isSignedIn(hooks.useSession(props.initialSession)) === true ? show(props.children) : null;
  // biome-ignore lint/correctness/noComponentHookFactories: made once per client, like its hooks
  const SignedOut = (props: SignedStateProps) =>
    isSignedIn(hooks.useSession(props.initialSession)) === false ? show(props.children) : null;
  // biome-ignore lint/correctness/noComponentHookFactories: made once per client, like its hooks
  const Protect = (props: ProtectProps) => {
    const session = hooks.useSession();
    const member = hooks.useActiveMemberRole();
    const needsRole = props.role !== undefined || props.permission !== undefined;
    if (session.isPending || (needsRole && member.isPending)) return null;
    const role = member.data?.role ?? "";
    const allowed =
      session.data !== null &&
      (!needsRole || role !== "") &&
      (props.role === undefined || holdsRole(role, props.role)) &&
      (props.permission === undefined || hooks.checkRolePermission({ role, permissions: props.permission }));
    return show(allowed ? props.children : props.fallback);
  };
  return { SignedIn, SignedOut, Protect };
}
