/** The second step's page (routes/two-factor.tsx) for a sign-in whose account asks a second factor. */
export function twoFactorPath(methods: readonly string[], redirectTo: string): string {
  return `/two-factor?methods=${methods.join(",")}&redirectTo=${encodeURIComponent(redirectTo)}`;
}
