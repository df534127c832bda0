/** Pure session decisions (SPEC §4 "Session", DECISIONS.md "Sessions and cookies"). */
export interface SessionTiming {
  expiresIn: number;
  updateAge: number;
  freshAge: number;
  dontRememberExpiresIn: number;
  disableSessionRefresh: boolean;
}

export function isSessionExpired(expiresAt: Date, now: Date): boolean {
  return expiresAt.getTime() <= now.getTime();
}

export function sessionExpiry(now: Date, dontRemember: boolean, timing: SessionTiming): Date {
  const seconds = dontRemember ? timing.dontRememberExpiresIn : timing.expiresIn;
  return new Date(now.getTime() + seconds * 1000);
}

/**
 * A session is refreshed (expiry moved forward) when it is read more than `updateAge` after its
 * last update — never for rememberMe false, never when refresh is disabled.
 */
export function shouldRefreshSession(
  session: { updatedAt: Date; dontRemember: boolean },
  now: Date,
  timing: SessionTiming,
  refreshDisabledByRequest: boolean,
): boolean {
  if (session.dontRemember || timing.disableSessionRefresh || refreshDisabledByRequest) return false;
  return now.getTime() - session.updatedAt.getTime() >= timing.updateAge * 1000;
}

/** SPEC §5: fresh when updated within the fresh age; a fresh age of 0 disables the rule. */
export function isSessionFresh(session: { updatedAt: Date }, now: Date, freshAge: number): boolean {
  if (freshAge === 0) return true;
  return now.getTime() - session.updatedAt.getTime() <= freshAge * 1000;
}
