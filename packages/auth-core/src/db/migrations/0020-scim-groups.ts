import type { Migration } from "./types.ts";

/**
 * SCIM userName and groups (features/scim). A directory's userName is unique in its organization,
 * any case (RFC 7643 §4.1.1): rows stored before it was kept get the account's address, which was
 * their userName. Groups: one row per team the directory made, found by the team, by displayName
 * (the team's name, in the teams' owner) or by the directory's externalId.
 */
export const scimGroupIndexes: Migration = {
  id: "0020-scim-groups",
  async up(collections, _now, { findUserById }) {
    const { scimUsers, scimGroups } = collections;
    for await (const row of scimUsers.find({ userNameKey: { $exists: false } })) {
      const user = await findUserById(collections, row.userId);
      const userName = user?.email ?? row.userId.toHexString();
      await scimUsers.updateOne(
        { _id: row._id },
        { $set: { userName, userNameKey: userName.toLowerCase() } },
      );
    }
    await scimUsers.createIndex(
      { organizationId: 1, userNameKey: 1 },
      { unique: true, name: "organizationId_userNameKey_unique" },
    );
    await scimGroups.createIndex(
      { organizationId: 1, teamId: 1 },
      { unique: true, name: "organizationId_teamId_unique" },
    );
    await scimGroups.createIndex({ organizationId: 1, externalId: 1 }, { name: "organizationId_externalId" });
  },
};
