import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

const { t, openAuth } = useTestAuthPerTest();

const ADA = "ada@example.com";
const NEW = "ada.new@example.com";

/**
 * Issue 34 (docs/architecture.md "Mail"): every change of address that mails a link stores the mail's
 * row before its write, and a write refused meanwhile drops that mail unsent. The three paths: an
 * unverified account's address moved at once, a confirmed change moving the address, and a
 * verifyNewEmailFirst confirmation spending the old link.
 */
interface Watch {
  /** The rows of mails to NEW, counted as each watched write starts. */
  rowsBefore: number[];
  refuse: boolean;
}

/** A user update hook that counts NEW's mail rows as the move starts, and refuses it when told to. */
function watchingMoves(watch: Watch, changeEmail: { verifyNewEmailFirst: boolean }) {
  return {
    user: { changeEmail: { enabled: true, ...changeEmail } },
    hooks: {
      user: {
        update: {
          before: async () => {
            watch.rowsBefore.push(await t.db.collection("mails").countDocuments({ to: NEW }));
            return watch.refuse ? false : undefined;
          },
        },
      },
    },
  };
}

async function signedInAda(verified: boolean): Promise<{ browser: TestBrowser; id: unknown }> {
  const browser = new TestBrowser(t.auth);
  await signUp(browser);
  if (verified) await t.db.collection("users").updateOne({ email: ADA }, { $set: { emailVerified: true } });
  const doc = await t.db.collection("users").findOne({ email: ADA });
  return { browser, id: doc!._id };
}

function latestLink(email: string, json = false): string {
  const mail = t.outbox.latestTo(email);
  if (!mail) throw new Error(`no mail to ${email}`);
  const link = new URL(mail.text.match(/https?:\/\/\S+/)![0]);
  if (json) link.searchParams.delete("callbackURL");
  return link.toString();
}

/** NEW's mail rows in insertion order, once every send started has been recorded and a worker ran past the lease. */
async function rowsToNew(): Promise<{ state: unknown; text: unknown }[]> {
  await t.auth.mail.settle();
  t.advance(120);
  await t.auth.mail.runPass();
  await t.auth.mail.settle();
  const rows = await t.db
    .collection("mails")
    .find({ to: NEW }, { sort: { _id: 1 } })
    .toArray();
  return rows.map(({ state, text }) => ({ state, text }));
}

const sentToNew = () => t.outbox.messages().filter((mail) => mail.to === NEW);

describe("an unverified account's address moved at once (verifyNewEmailFirst off)", () => {
  it("stores the new address's mail row before the move, then sends it", async () => {
    const watch: Watch = { rowsBefore: [], refuse: false };
    await openAuth(watchingMoves(watch, { verifyNewEmailFirst: false }));
    const { browser, id } = await signedInAda(false);
    const res = await browser.post("/change-email", { newEmail: NEW });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    expect(watch.rowsBefore).toEqual([1]);
    expect(await t.db.collection("users").findOne({ _id: id as never })).toMatchObject({
      email: NEW,
      emailVerified: false,
    });
    expect(await rowsToNew()).toEqual([{ state: "sent", text: null }]);
    expect(sentToNew().map((mail) => mail.kind)).toEqual(["verify-email"]);
  });

  it("a move refused by a hook answers as before and drops the mail unsent", async () => {
    const watch: Watch = { rowsBefore: [], refuse: true };
    await openAuth(watchingMoves(watch, { verifyNewEmailFirst: false }));
    const { browser, id } = await signedInAda(false);
    const res = await browser.post("/change-email", { newEmail: NEW });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "EMAIL_CAN_NOT_BE_UPDATED", message: "Couldn't update your email" });
    expect(watch.rowsBefore).toEqual([1]);
    expect(await t.db.collection("users").findOne({ _id: id as never })).toMatchObject({
      email: ADA,
      emailVerified: false,
    });
    expect(await rowsToNew()).toEqual([{ state: "dropped", text: null }]);
    expect(sentToNew()).toEqual([]);
    // Nothing moved: the old address hears of nothing either.
    expect(t.outbox.messages().filter((mail) => mail.kind === "email-changed")).toEqual([]);
  });
});

describe("a confirmed change moving the address (the current address's link, verifyNewEmailFirst off)", () => {
  it("stores the new address's mail row before the move, then sends it", async () => {
    const watch: Watch = { rowsBefore: [], refuse: false };
    await openAuth(watchingMoves(watch, { verifyNewEmailFirst: false }));
    const { browser, id } = await signedInAda(true);
    await browser.post("/change-email", { newEmail: NEW });
    expect(watch.rowsBefore).toEqual([]);
    const res = await browser.get(latestLink(ADA, true));
    expect(res.status).toBe(200);
    expect(watch.rowsBefore).toEqual([1]);
    expect(await t.db.collection("users").findOne({ _id: id as never })).toMatchObject({
      email: NEW,
      emailVerified: false,
    });
    expect(await rowsToNew()).toEqual([{ state: "sent", text: null }]);
    expect(sentToNew().map((mail) => mail.kind)).toEqual(["verify-email"]);
  });

  it("a move refused by a hook answers as before, drops the mail unsent and leaves the link usable", async () => {
    const watch: Watch = { rowsBefore: [], refuse: true };
    await openAuth(watchingMoves(watch, { verifyNewEmailFirst: false }));
    const { browser, id } = await signedInAda(true);
    await browser.post("/change-email", { newEmail: NEW });
    const link = latestLink(ADA, true);
    const res = await browser.get(link);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "VERIFICATION_UNAUTHORIZED", message: "unauthorized" });
    expect(watch.rowsBefore).toEqual([1]);
    expect(await t.db.collection("users").findOne({ _id: id as never })).toMatchObject({
      email: ADA,
      emailVerified: true,
    });
    expect(await rowsToNew()).toEqual([{ state: "dropped", text: null }]);
    expect(sentToNew()).toEqual([]);
    // The refused move released the link: once the hook agrees, it moves the address and mails once.
    watch.refuse = false;
    expect((await browser.get(link)).status).toBe(200);
    expect(await rowsToNew()).toEqual([
      { state: "dropped", text: null },
      { state: "sent", text: null },
    ]);
    expect(sentToNew()).toHaveLength(1);
  });
});

describe("a verifyNewEmailFirst confirmation spending the old link", () => {
  /** Counts NEW's mail rows when the next one-time marker (the spent link) is inserted. */
  function countRowsAtNextMarker(seen: number[]): void {
    const verifications = t.auth.context.collections.verifications as unknown as {
      insertOne: (...args: never[]) => Promise<unknown>;
    };
    const original = verifications.insertOne.bind(verifications);
    verifications.insertOne = async (...args: never[]) => {
      verifications.insertOne = original;
      seen.push(await t.db.collection("mails").countDocuments({ to: NEW }));
      return original(...args);
    };
  }

  it("stores the new address's mail row before the old link is spent, then sends it", async () => {
    await openAuth({ user: { changeEmail: { enabled: true, verifyNewEmailFirst: true } } });
    const { browser, id } = await signedInAda(true);
    await browser.post("/change-email", { newEmail: NEW });
    const seen: number[] = [];
    countRowsAtNextMarker(seen);
    const res = await browser.get(latestLink(ADA, true));
    expect(res.status).toBe(200);
    expect(seen).toEqual([1]);
    expect(await t.db.collection("verifications").countDocuments({ value: "used" })).toBe(1);
    expect(await t.db.collection("users").findOne({ _id: id as never })).toMatchObject({
      email: ADA,
      emailVerified: true,
    });
    expect(await rowsToNew()).toEqual([{ state: "sent", text: null }]);
    expect(sentToNew().map((mail) => mail.kind)).toEqual(["verify-email"]);
  });

  it("a link spent already answers as before and drops the second mail unsent", async () => {
    await openAuth({ user: { changeEmail: { enabled: true, verifyNewEmailFirst: true } } });
    const { browser, id } = await signedInAda(true);
    await browser.post("/change-email", { newEmail: NEW });
    const link = latestLink(ADA, true);
    expect((await browser.get(link)).status).toBe(200);
    const seen: number[] = [];
    countRowsAtNextMarker(seen);
    const replay = await browser.get(link);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ code: "VERIFICATION_USER_NOT_FOUND", message: "user_not_found" });
    // The replay's row was stored before its marker was refused.
    expect(seen).toEqual([2]);
    expect(await rowsToNew()).toEqual([
      { state: "sent", text: null },
      { state: "dropped", text: null },
    ]);
    expect(sentToNew()).toHaveLength(1);
    expect(await t.db.collection("users").findOne({ _id: id as never })).toMatchObject({
      email: ADA,
      emailVerified: true,
    });
  });

  it("concurrent clicks: the one that spends the link sends its mail, the others' rows are dropped and cost no mail limit", async () => {
    await openAuth({ user: { changeEmail: { enabled: true, verifyNewEmailFirst: true } } });
    const { browser } = await signedInAda(true);
    await browser.post("/change-email", { newEmail: NEW });
    const link = latestLink(ADA, true);
    const limitsBefore = await t.db.collection("mailLimits").countDocuments();
    const clicks = await Promise.all(Array.from({ length: 5 }, () => new TestBrowser(t.auth).get(link)));
    expect(clicks.map((res) => res.status).sort()).toEqual([200, 401, 401, 401, 401]);
    const states = (await rowsToNew()).map((row) => row.state).sort();
    expect(states).toEqual(["dropped", "dropped", "dropped", "dropped", "sent"]);
    expect(sentToNew()).toHaveLength(1);
    // Only the winner's mail was counted (its sender's and its recipient's entries).
    expect((await t.db.collection("mailLimits").countDocuments()) - limitsBefore).toBe(2);
  });
});
