import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { TestBrowser } from "#test/browser.ts";
import { newBrowser, runSocialFlow, useSocialTestbed } from "#test/social.ts";

/**
 * The one-refresh-at-a-time claim (token-service.ts): it outlives the slowest allowed provider call,
 * and a holder releases only its own claim — never the one a successor took after it expired.
 */
const TIMEOUT_MS = 120_000;
const { server, t } = useSocialTestbed(["github"], { advanced: { providerTimeoutMs: TIMEOUT_MS } });
let nextId = 9100;

async function githubUser(): Promise<{ browser: TestBrowser; claimId: string }> {
  const id = String(nextId++);
  server.setIdentity("github", {
    id,
    email: `r${id}@example.com`,
    emailVerified: true,
    name: "R",
    image: null,
  });
  const browser = newBrowser(t);
  const flow = await runSocialFlow(browser, server, { provider: "github", callbackURL: "/home" });
  expect(flow.location).toBe("/home");
  const account = await t.db.collection("accounts").findOne({ providerId: "github", accountId: id });
  return { browser, claimId: `token-refresh:${account?._id.toHexString()}` };
}

const claimRows = (identifier: string) => t.db.collection("verifications").find({ identifier }).toArray();

/** Waits until the provider has received `count` refresh requests. */
async function refreshesArrived(count: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const arrived = server.requests.filter((r) => r.form.grant_type === "refresh_token").length;
    if (arrived >= count) return;
    await sleep(10);
  }
  throw new Error(`${count} refresh requests never arrived`);
}

describe("the refresh claim", () => {
  it("lives longer than providerTimeoutMs, and is gone once the refresh is done", async () => {
    const { browser, claimId } = await githubUser();
    server.fail("github", "token", { delayMs: 400, times: 1 });
    const pending = browser.post("/refresh-token", { providerId: "github" });
    await refreshesArrived(1);
    const [row] = await claimRows(claimId);
    if (!row) throw new Error("no claim while the refresh is in flight");
    const lifetime = (row.expiresAt as Date).getTime() - (row.createdAt as Date).getTime();
    expect(lifetime).toBeGreaterThan(TIMEOUT_MS);
    expect((await pending).status).toBe(200);
    expect(await claimRows(claimId)).toEqual([]);
  });

  it("a holder whose claim expired under it does not release its successor's claim", async () => {
    const { browser, claimId } = await githubUser();
    server.fail("github", "token", { delayMs: 700, times: 1 });
    const first = browser.post("/refresh-token", { providerId: "github" });
    await refreshesArrived(1);
    const [firstClaim] = await claimRows(claimId);
    // The first holder looks dead: its claim has expired by the clock.
    const skip = TIMEOUT_MS / 1000 + 31;
    t.advance(skip);
    try {
      server.fail("github", "token", { delayMs: 2500, times: 1 });
      const second = browser.post("/refresh-token", { providerId: "github" });
      await refreshesArrived(2);
      const [secondClaim] = await claimRows(claimId);
      expect(secondClaim?.value).not.toBe(firstClaim?.value);
      expect((await first).status).toBe(200);
      // The first holder is done: the successor's claim is still there, untouched.
      expect(await claimRows(claimId)).toEqual([secondClaim]);
      await second;
      expect(await claimRows(claimId)).toEqual([]);
    } finally {
      t.advance(-skip);
    }
  });
});
