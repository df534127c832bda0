import { describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import { PASSWORDLESS } from "#test/passwordless.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

const { t, openAuth } = useTestAuthPerTest();

/** The statuses of `count` calls of one client address in a row. */
async function statuses(path: string, body: unknown, count: number): Promise<number[]> {
  const answers: number[] = [];
  for (let i = 0; i < count; i++) answers.push((await new TestBrowser(t.auth).post(path, body)).status);
  return answers;
}

describe("rate limits of the passwordless endpoints", () => {
  it("mail requests: 3 per 60 s per client, as the other mails", async () => {
    await openAuth({ ...PASSWORDLESS, rateLimit: { enabled: true } }, { frozen: true });
    const ask = { email: "ada@example.com", type: "sign-in" };
    expect(await statuses("/email-otp/send-verification-otp", ask, 4)).toEqual([200, 200, 200, 429]);
    expect(await statuses("/sign-in/magic-link", { email: "ada@example.com" }, 4)).toEqual([
      200, 200, 200, 429,
    ]);
    t.advance(11);
    expect(await statuses("/forget-password/email-otp", { email: "ada@example.com" }, 4)).toEqual([
      200, 200, 200, 429,
    ]);
    expect(
      (await new TestBrowser(t.auth).post("/sign-in/magic-link", { email: "ada@example.com" })).status,
    ).toBe(429);
  });

  it("code checks: 3 per 10 s per client, as sign-in", async () => {
    await openAuth({ ...PASSWORDLESS, rateLimit: { enabled: true } }, { frozen: true });
    const guess = { email: "ada@example.com", otp: "123456" };
    expect(await statuses("/sign-in/email-otp", guess, 4)).toEqual([400, 400, 400, 429]);
    expect(await statuses("/email-otp/verify-email", guess, 4)).toEqual([400, 400, 400, 429]);
    t.advance(11);
    expect((await new TestBrowser(t.auth).post("/email-otp/verify-email", guess)).status).toBe(400);
  });
});
