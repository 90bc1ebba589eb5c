/**
 * The console's knowledge page in a real browser against a real registry server: an operator adds a text
 * readable by one scope and sees it listed, ready, with its readers; another key of the tenant lists none of
 * it; a form naming both a URL and a text is refused on the page; a loopback page is added through egress;
 * removing one drops it.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium, SKIP } from "./chromium.js";
import { startConsoleFixture } from "./console-fixture.js";

describe(`the console's knowledge page (needs ${CHROMIUM})`, () => {
  it.skipIf(SKIP)(
    "adds a text and a page, lists them with their readers, hides them from others, and removes one",
    { timeout: 60_000 },
    async () => {
      const f = await startConsoleFixture({ knowledge: true });
      const site = createServer((_request, response) => {
        response.writeHead(200, { "content-type": "text/html" });
        response.end(
          "<html><head><title>Office guide</title></head><body><h1>Office</h1><p>Doors open at eight.</p></body></html>",
        );
      });
      await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        page.setDefaultTimeout(10_000);
        const problems: string[] = [];
        page.on("pageerror", (error) => problems.push(error.message));

        await page.goto(f.loginUrl);
        await page.locator("#who", { hasText: "alice" }).waitFor();
        await page.getByRole("tab", { name: "Knowledge" }).click();
        expect(new URL(page.url()).hash).toBe("#knowledge");
        await page.locator("#knowledge-status", { hasText: "No knowledge source yet." }).waitFor();

        const form = page.locator("#knowledge-form");
        await form
          .locator("textarea[name=text]")
          .fill("# Travel\n## Trains\nBook trains for trips under four hours.");
        await form.locator("input[name=title]").fill("Travel policy");
        await form.locator("input[name=subjects]").fill("scope:travel");
        await form.getByRole("button", { name: "Add" }).click();
        await page.locator("#knowledge-status", { hasText: "Added Travel policy: 1 chunks." }).waitFor();
        const row = page.locator("#knowledge-rows tr", { hasText: "Travel policy" });
        expect((await row.locator("td").allTextContents()).slice(0, 5)).toEqual([
          "Travel policy",
          "text",
          "ready",
          "1",
          "scope:travel",
        ]);

        // Another key of the tenant, without the scope, lists none of it.
        const theirs = await fetch(`${f.url}/api/v1/kb`, {
          headers: { authorization: `Bearer ${f.agentKey}` },
        });
        expect(await theirs.json()).toEqual({ sources: [], next: null });

        // A URL and a text at once: refused on the page.
        await form.locator("input[name=url]").fill("https://example.com/");
        await form.locator("textarea[name=text]").fill("also text");
        await form.getByRole("button", { name: "Add" }).click();
        await page
          .locator("#knowledge-status.status-error", { hasText: "Give a URL or a text, not both." })
          .waitFor();

        await form.locator("textarea[name=text]").fill("");
        await form
          .locator("input[name=url]")
          .fill(`http://127.0.0.1:${(site.address() as AddressInfo).port}/guide`);
        await form.getByRole("button", { name: "Add" }).click();
        await page.locator("#knowledge-status", { hasText: "Added Office guide: 1 chunks." }).waitFor();
        await page
          .locator("#knowledge-rows tr", { hasText: "Office guide" })
          .locator("td", { hasText: "tenant" })
          .waitFor();

        await row.getByRole("button", { name: "Remove Travel policy" }).click();
        await page.locator("#knowledge-status", { hasText: "Removed Travel policy." }).waitFor();
        await row.waitFor({ state: "detached" });
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
        await f.close();
        await new Promise<void>((resolve) => site.close(() => resolve()));
      }
    },
  );
});
