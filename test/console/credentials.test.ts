/**
 * The console's credentials page in a real browser against a real registry server that keeps credentials:
 * paste a token (which is in no page and no answer afterwards), see its row, revoke it, and begin an OAuth
 * connection that lands on the provider's authorization page by way of toolreg's start link.
 */
import type { Response } from "playwright-core";
import { describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium, SKIP } from "./chromium.js";
import { NOTES_AUTHORIZE_URL, startConsoleFixture } from "./console-fixture.js";

const TOKEN = "notes-pat-7Hq2Lw9Xe4";

describe(`the console's credentials page (needs ${CHROMIUM})`, () => {
  it.skipIf(SKIP)(
    "stores a pasted token without ever showing it, revokes it, and starts an OAuth connection",
    { timeout: 30_000 },
    async () => {
      const f = await startConsoleFixture({ credentials: true });
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        page.setDefaultTimeout(10_000);
        const problems: string[] = [];
        page.on("pageerror", (error) => problems.push(error.message));
        page.on("console", (message) => {
          if (message.type() === "error") problems.push(message.text());
        });
        // Every answer the page got from the server, read whole, to look for the token in: all but the
        // event stream, which never ends (the token could reach no event: a store writes none).
        const answers: Promise<string>[] = [];
        page.on("response", (response: Response) => {
          const streamed = response.headers()["content-type"]?.startsWith("text/event-stream");
          if (response.url().startsWith(f.url) && !streamed) answers.push(response.text().catch(() => ""));
        });
        const startLinks: string[] = [];
        page.on("request", (request) => {
          if (request.url().startsWith(`${f.url}/oauth/start/`)) startLinks.push(request.url());
        });
        const sentToken: string[] = [];
        page.on("request", (request) => {
          if (request.postData()?.includes(TOKEN)) sentToken.push(`${request.method()} ${request.url()}`);
        });

        await page.goto(f.loginUrl);
        await page.locator("#who", { hasText: "alice" }).waitFor();
        await page.getByRole("tab", { name: "Credentials" }).click();
        expect(new URL(page.url()).hash).toBe("#credentials");
        await page.locator("#credentials-status", { hasText: "No credential is connected yet." }).waitFor();

        // Paste a token as the tenant's (alice is an operator), into a password field.
        const form = page.locator("#token-form");
        await expect(form.getByLabel("Token").getAttribute("type")).resolves.toBe("password");
        await form.getByLabel("Credential").selectOption({ label: "notes" });
        await form.getByLabel("Token").fill(TOKEN);
        await form.getByLabel("Account").fill("alice@notes");
        await form.getByLabel("Whose").selectOption({ label: "The tenant's" });
        await form.getByRole("button", { name: "Store token" }).click();
        await page.locator("#credentials-status", { hasText: "Stored notes for notes." }).waitFor();

        const row = page.locator("#credential-rows tr", { hasText: "alice@notes" });
        await row.waitFor();
        expect(await row.locator("td").allTextContents()).toEqual([
          "notes",
          "notes",
          "token",
          "alice@notes",
          "—",
          "the tenant's",
          expect.stringMatching(/^connected /),
          "Revoke",
        ]);
        // The field is empty, and the token is nowhere on the page or in what the server answered.
        expect(await form.getByLabel("Token").inputValue()).toBe("");
        expect(await page.content()).not.toContain(TOKEN);
        expect(sentToken).toEqual([`POST ${f.url}/api/v1/credentials`]);
        for (const answer of await Promise.all(answers)) expect(answer).not.toContain(TOKEN);

        await row.getByRole("button", { name: /Revoke notes/ }).click();
        await page.locator("#credentials-status", { hasText: "Revoked notes" }).waitFor();
        await row.locator("td", { hasText: /^revoked / }).waitFor();
        expect(await row.getByRole("button").count()).toBe(0);

        // On a phone the table becomes cards and nothing sticks out sideways.
        await page.setViewportSize({ width: 390, height: 844 });
        expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
        if (process.env.CREDENTIALS_SCREENSHOT)
          await page.screenshot({ path: process.env.CREDENTIALS_SCREENSHOT, fullPage: true });
        await page.setViewportSize({ width: 1280, height: 800 });

        // OAuth: the start link binds the consent to this browser, then sends it to the provider.
        let authorize: URL | undefined;
        await page.route(`${new URL(NOTES_AUTHORIZE_URL).origin}/**`, (route) => {
          authorize = new URL(route.request().url());
          return route.fulfill({ contentType: "text/html", body: "<h1>The notes provider</h1>" });
        });
        const navigated: string[] = [];
        page.on("framenavigated", (frame) => navigated.push(frame.url()));
        await page.getByRole("button", { name: "Connect notes with OAuth" }).click();
        await page.getByRole("heading", { name: "The notes provider" }).waitFor();
        expect(navigated.at(-1)).toMatch(new RegExp(`^${NOTES_AUTHORIZE_URL}\\?`));
        expect(startLinks).toEqual([
          expect.stringMatching(new RegExp(`^${f.url}/oauth/start/[0-9a-f-]{36}$`)),
        ]);
        expect(`${authorize?.origin}${authorize?.pathname}`).toBe(NOTES_AUTHORIZE_URL);
        expect(authorize?.searchParams.get("client_id")).toBe("console-notes");
        expect(authorize?.searchParams.get("redirect_uri")).toBe(`${f.url}/oauth/callback`);

        expect(problems).toEqual([]);
      } finally {
        await browser.close();
        await f.close();
      }
    },
  );
});
