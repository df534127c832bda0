import type { AuthContext } from "../../context.ts";
import type { ObjectId } from "../../db/ids.ts";
import { authenticatorNameOf } from "./authenticator-names.ts";
import { findUserPasskeys } from "./store.ts";

/** What an organization's authenticator policy judges of a passkey (features/organization check-passkey-policy). */
export interface PasskeyFacts {
  id: string;
  name: string | null;
  aaguid: string | null;
  authenticatorName: string | null;
  /** The authenticator verified the user at registration or a later sign-in (PasskeyDoc.uvInitialized). */
  uvInitialized: boolean;
}

/** The user's passkeys, oldest first, as a policy sees them. */
export async function listPasskeyFacts(auth: AuthContext, userId: ObjectId): Promise<PasskeyFacts[]> {
  return (await findUserPasskeys(auth.collections, userId)).map((doc) => ({
    id: doc._id.toHexString(),
    name: doc.name,
    aaguid: doc.aaguid,
    authenticatorName: authenticatorNameOf(doc.aaguid),
    uvInitialized: doc.uvInitialized === true,
  }));
}
