import { describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import { deleteLinkFrom, signUpIn } from "#test/deletion.ts";
import { addMember, createOrganization, signIn } from "#test/organization.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

/**
 * Database commands per deletion request (docs/architecture.md), named `command:collection`. Rate limiting is
 * off here so the count is deletion's own (the limiter's counter is measured by the session budget).
 */
const { t, openAuth } = useTestAuthPerTest();

async function createMeteredAuth(sendDeleteAccountVerification: boolean) {
  await openAuth({ user: { deleteUser: { enabled: true, sendDeleteAccountVerification } } });
  return { auth: t.auth, outbox: t.outbox };
}

const count = (run: () => Promise<unknown>) => t.commands(run);

/** docs/security.md: the user's memberships, read before anything is written (none here). */
const MEMBERSHIPS = "find:members";

/**
 * Sessions, the journal entry (a crash from here on leaves it, and auth.cleanup() finishes the
 * deletion: issue 16 §3), user, the sweep of memberships a racing add-member may have inserted,
 * accounts, tokens; second factor and its rows; API keys (a find, none to delete). The entry goes
 * with user.deleted stored, after the answer (features/events).
 */
const CASCADE = [
  // The sessions read, their session.revoked journaled (features/events), then deleted.
  "find:sessions",
  "insert:pendingDeletions",
  "delete:sessions",
  "insert:pendingDeletions",
  "delete:users",
  "update:listingVersions",
  // The organizations still listing the user: their listing versions are bumped (db/listing-version.ts).
  "distinct:members",
  "delete:emailClaims", // the address given up with the user (docs/scale.md)
  "delete:userTimeline", // and its timeline entry
  // The sweep: member rows a racing add-member inserted (none here); those found are deleted by
  // _id and their organizations bumped, then it looks again.
  "find:members",
  "delete:teamMembers",
  "delete:accounts",
  "delete:verifications",
  "delete:twoFactors",
  "delete:verifications",
  // The user's failed sign-ins (features/sign-in-throttle).
  "delete:verifications",
  "find:apiKeys",
  "delete:passkeys", // the user's passkeys (features/passkey)
];

describe("database commands per deletion request", () => {
  it("delete-user with a fresh session: 3 reads, then the cascade", async () => {
    const { auth } = await createMeteredAuth(false);
    const ada = new TestBrowser(auth);
    await signUpIn(t, ada, "ada@example.com");
    const commands = await count(() => ada.post("/delete-user", {}));
    expect(commands).toEqual(["find:sessions", "find:users", MEMBERSHIPS, ...CASCADE]);
  });

  it("delete-user asking for the mail: 3 reads and 1 insert; the link: 3 reads, a find-then-delete consume, the cascade", async () => {
    const { auth, outbox } = await createMeteredAuth(true);
    const ada = new TestBrowser(auth);
    await signUpIn(t, ada, "ada@example.com");
    const request = await count(() => ada.post("/delete-user", {}));
    expect(request).toEqual([
      "find:sessions",
      "find:users",
      MEMBERSHIPS,
      "insert:mailLimits", // the mail counted against the per-recipient limit
      "insert:mails", // queued in the outbox (features/mail-outbox), sent beside the answer
      "insert:verifications", // the link's token, after its mail: a crash between leaves no token unmailed
    ]);
    const link = deleteLinkFrom(outbox.latestTo("ada@example.com")?.text ?? "");
    const confirm = await count(() => ada.get(link.path));
    expect(confirm).toEqual([
      "find:sessions",
      "find:users",
      MEMBERSHIPS,
      "find:verifications",
      "delete:verifications",
      ...CASCADE,
    ]);
  });

  it("delete-user of an owner, co-owner and member: 2 more reads, the guarded demotion, the organization cascade", async () => {
    await openAuth({ user: { deleteUser: { enabled: true } } });
    const [ada, bob] = [await signIn(t, "ada"), await signIn(t, "bob")];
    await createOrganization(ada, "alone");
    const coOwned = await createOrganization(ada, "co-owned");
    await addMember(t, coOwned, bob, "owner");
    await addMember(t, await createOrganization(bob, "bobs"), ada, "member");
    const commands = await count(() => ada.browser.post("/delete-user", {}));
    expect(commands).toEqual([
      "find:sessions",
      "find:users",
      MEMBERSHIPS,
      "distinct:members", // owned organizations with other members
      "distinct:members", // … and another owner
      // The creator role dropped in co-owned: owners counted, role written, owners counted again.
      "aggregate:members",
      "update:members",
      "update:organizations",
      "aggregate:members",
      "find:sessions",
      "insert:pendingDeletions", // session.revoked journaled before the sessions go (features/events)
      "delete:sessions",
      // The organization Ada is alone in, with all its rows (organization/organizations/service.ts),
      // between its own journal entry and the entry's removal.
      "insert:pendingDeletions",
      "delete:organizations",
      "delete:members",
      "delete:invitations",
      "delete:teamMembers",
      "delete:teams",
      "update:sessions",
      // Her member rows elsewhere (read, member.removed journaled, deleted by _id, their organizations
      // bumped), then none left holding the owner role (promoted meanwhile), her team memberships and
      // pending invitations.
      "find:members",
      "insert:pendingDeletions",
      "delete:members",
      "update:organizations",
      "find:members",
      "delete:teamMembers",
      "delete:invitations",
      ...CASCADE.slice(3), // the sessions are above
    ]);
  });

  it("delete-user refused for a sole owner: 5 reads, no write", async () => {
    await openAuth({ user: { deleteUser: { enabled: true } } });
    const [ada, bob] = [await signIn(t, "ada"), await signIn(t, "bob")];
    await addMember(t, await createOrganization(ada, "org"), bob, "member");
    const commands = await count(() => ada.browser.post("/delete-user", {}));
    expect(commands).toEqual([
      "find:sessions",
      "find:users",
      MEMBERSHIPS,
      "distinct:members",
      "distinct:members",
    ]);
  });
});
