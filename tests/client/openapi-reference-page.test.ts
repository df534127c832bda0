import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LiveServer, startLiveServer } from "./live-server.ts";

/**
 * The reference page in Chromium under its own CSP: the search box filters the operations (its one
 * inline script runs, allowed by hash, and nothing is refused), and models read as property tables.
 */
let live: LiveServer;
let browser: Browser;
beforeAll(async () => {
  live = await startLiveServer({ organization: { teams: { enabled: true } } });
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
  });
});
afterAll(async () => {
  await browser?.close();
  await live?.close();
});

describe("the reference page in a browser", () => {
  it("filters the operations as one types, and shows the models' properties", async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(`${live.origin}/api/auth/reference`);
    const operations = page.locator("details[data-search]");
    const all = await operations.count();
    const visible = page.locator("details[data-search]:visible");
    expect(await visible.count()).toBe(all);

    await page.fill("#filter", "api-key/");
    const paths = await page.locator("details[data-search]:visible summary code").allTextContents();
    expect(paths.length).toBeGreaterThan(3);
    for (const path of paths) expect(path).toContain("/api-key/");
    expect(await page.locator("section[data-tag]:visible h2").allTextContents()).toEqual(["api-key"]);

    await page.fill("#filter", "");
    expect(await visible.count()).toBe(all);

    const userRows = await page.locator("#model-User tr").allTextContents();
    expect(userRows[0]).toBe("nametyperequireddescriptionexample");
    expect(userRows).toContain('emailstringyes"ada@example.com"');
    expect(problems).toEqual([]);
    await page.close();
  });
});
