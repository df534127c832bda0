import { z } from "zod";
import { userIdField } from "./admin-fields.ts";
import { defineContract } from "./contract.ts";

/**
 * What the admin sees of a user's mails (features/mail-outbox listing.ts MailSummary): kind,
 * recipient, state, attempts and the server's last answer. Never a subject or body: a body may
 * hold a live link (docs/security.md "Mail outbox").
 */
export interface UserMail {
  id: string;
  kind: string;
  to: string;
  state: "queued" | "sent" | "failed" | "dropped";
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date | null;
  expiresAt: Date;
  createdAt: Date;
  sentAt: Date | null;
}

const userMailSchema: z.ZodType<UserMail> = z.strictObject({
  id: z.string(),
  kind: z.string(),
  to: z.string(),
  state: z.enum(["queued", "sent", "failed", "dropped"]),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.date().nullable(),
  expiresAt: z.date(),
  createdAt: z.date(),
  sentAt: z.date().nullable(),
});

export const adminListUserMailsContract = defineContract({
  name: "adminListUserMails",
  method: "POST",
  path: "/admin/list-user-mails",
  auth: "session",
  body: z.strictObject({ userId: userIdField }),
  response: z.strictObject({ mails: z.array(userMailSchema) }),
  errors: ["RESOURCE_ACCESS_NOT_ALLOWED", "NOT_ALLOWED_WHILE_IMPERSONATING", "USER_NOT_FOUND"],
  summary:
    "A user's 20 most recent mails, newest first: kind, state, attempts, the server's last answer; never a body.",
  tags: ["admin"],
});
