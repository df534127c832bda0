/** Pure invitation decisions: open or not, and the unique slots. No I/O; the clock is passed in. */

/** accept and reject only from pending and unexpired. */
export function isInvitationOpen(invitation: { status: string; expiresAt: Date }, now: Date): boolean {
  return invitation.status === "pending" && invitation.expiresAt.getTime() > now.getTime();
}

/** The unique slot of a pending invitation: one pending invitation per address and organization. */
export function pendingInvitationSlot(organizationId: string, email: string): string {
  return `pending:${organizationId}:${email}`;
}

export function closedInvitationSlot(invitationId: string): string {
  return `closed:${invitationId}`;
}
