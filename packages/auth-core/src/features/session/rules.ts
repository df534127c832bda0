/** Pure session decisions. */
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
 * A session is refreshed (expiry moved forward) once `updateAge` has passed since its expiry was
 * last set (`expiresAt - expiresIn`) — never for rememberMe false, never when refresh is disabled.
 * Measured from the expiry rather than `updatedAt` on purpose: a sliding refresh is not an update
 * of the session, so it must not make a session fresh again (otherwise any session read once a day
 * would pass every fresh-session check; see `isSessionFresh`).
 */
export function shouldRefreshSession(
  session: { expiresAt: Date; dontRemember: boolean },
  now: Date,
  timing: SessionTiming,
  refreshDisabledByRequest: boolean,
): boolean {
  if (session.dontRemember || timing.disableSessionRefresh || refreshDisabledByRequest) return false;
  const lastExtendedAt = session.expiresAt.getTime() - timing.expiresIn * 1000;
  return now.getTime() - lastExtendedAt >= timing.updateAge * 1000;
}

/**
 * fresh when updated within the fresh age (a fresh age of 0 disables the rule).
 * `updatedAt` moves on sign-in and real session changes, never on a sliding refresh.
 */
export function isSessionFresh(session: { updatedAt: Date }, now: Date, freshAge: number): boolean {
  if (freshAge === 0) return true;
  return now.getTime() - session.updatedAt.getTime() <= freshAge * 1000;
}
