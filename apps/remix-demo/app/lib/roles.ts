/** The organization roles the demo offers (the core defaults). */
export const ROLES = ["owner", "admin", "member"] as const;
