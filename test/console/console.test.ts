/**
 * The web console in a real browser against a real registry server: log in with a one-time link, find a
 * tool, watch a gated call arrive in the inbox over the event stream, approve it, and find the resumed call
 * in the audit trail. Also takes the inbox screenshots: into docs/ with UPDATE_SCREENSHOTS=1, so a test run
 * leaves the committed ones alone, and into a scratch folder otherwise.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium, SKIP } from "./chromium.js";
import { startConsoleFixture } from "./console-fixture.js";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const screenshotDir = process.env.UPDATE_SCREENSHOTS
  ? fileURLToPath(new URL("../../docs/", import.meta.url))
  : mkdtempSync(join(tmpdir(), "toolreg-console-"));
const screenshot = (name: string) => join(screenshotDir, name);

/** Nothing sticks out sideways: the page is no wider than the window. */
async function fitsWidth(page: Page, width: number): Promise<void> {
  expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(width);
}

describe(`the web console (needs ${CHROMIUM})`, () => {
  it.skipIf(SKIP)(
    "finds a tool, shows a gated call live in the inbox, approves it and shows the resumed call in the audit trail",
    { timeout: 30_000 },
    async () => {
      const f = await startConsoleFixture();
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: DESKTOP });
        page.setDefaultTimeout(10_000);
        const problems: string[] = [];
        page.on("pageerror", (error) => problems.push(error.message));
        // CSP violations and failed loads are reported as console errors.
        page.on("console", (message) => {
          if (message.type() === "error") problems.push(message.text());
        });
        page.on("request", (request) => {
          if (!request.url().startsWith(f.url))
            problems.push(`request left the test server: ${request.url()}`);
        });

        await page.goto(f.loginUrl);
        expect(new URL(page.url()).pathname).toBe("/");
        await page.locator("#who", { hasText: "alice" }).waitFor();

        // Catalogue: search, then open the tool to see its governance and arguments.
        await page.getByLabel("Search tools").fill("send an email");
        await page.locator("#tool-status", { hasText: "match" }).waitFor();
        const names = await page.locator("#tool-list .tool-name").allTextContents();
        expect(names[0]).toBe("send_email");
        expect(names).not.toContain("calculate");
        const tool = page.locator("#tool-list > li", { hasText: "send_email" });
        await tool.locator("summary").first().click();
        expect(await tool.locator(".badges").textContent()).toContain("approval: always");
        expect(await tool.locator("table.arguments").textContent()).toContain("subject");

        // Inbox: empty, and the event stream connected, before the agent asks.
        await page.getByRole("tab", { name: /Approvals/ }).click();
        await page.locator("#inbox-empty").waitFor();
        await page.locator("#live", { hasText: "Live" }).waitFor();
        await page.evaluate("globalThis.notReloaded = true");

        const parked = await f.invokeAsAgent("send_email", {
          to: "joe@example.com",
          subject: "Invoice <b>#42</b>",
          body: "Hi Joe,\nthe March invoice is attached.",
        });
        expect(parked.status).toBe(202);
        const approvalId = ((await parked.json()) as { error: { details: { approvalId: string } } }).error
          .details.approvalId;

        const card = page.locator("#approval-list > li", { hasText: approvalId });
        await card.waitFor();
        expect(await page.evaluate("globalThis.notReloaded")).toBe(true);
        expect(await page.locator("#pending-number").textContent()).toBe("1");
        // The arguments are shown as text: the markup in them is not markup on the page.
        expect(await card.locator("pre").textContent()).toContain('"subject": "Invoice <b>#42</b>"');
        expect(await card.locator("b").count()).toBe(0);
        expect(f.sendEmail.calls).toHaveLength(0);

        await page.screenshot({ path: screenshot("console-inbox.png") });
        await page.setViewportSize(PHONE);
        await fitsWidth(page, PHONE.width);
        await page.screenshot({ path: screenshot("console-inbox-phone.png") });
        await page.setViewportSize(DESKTOP);

        await card.getByRole("button", { name: /^Approve/ }).click();
        await page.locator("#decisions li", { hasText: "Approved send_email" }).waitFor();
        await card.waitFor({ state: "detached" });
        expect(await page.locator("#pending-count").isHidden()).toBe(true);

        // An approved call whose run was lost: shown with what is known, and run again only on a retry.
        const lostId = await f.interruptedCall({ to: "ann@example.com", subject: "Renewal", body: "Hi Ann" });
        await page.locator("#inbox-refresh").click();
        const lost = page.locator("#approval-list > li", { hasText: lostId });
        await lost.waitFor();
        expect(await lost.locator(".badge", { hasText: "interrupted" }).count()).toBe(1);
        expect(await lost.locator(".warning").textContent()).toContain("Check the target system");
        expect(await lost.locator("dl").textContent()).toContain("web-2:4711");
        expect(await lost.getByRole("button", { name: /^Approve/ }).count()).toBe(0);
        await lost.screenshot({ path: screenshot("console-interrupted.png") });
        expect(f.sendEmail.calls).toHaveLength(1);
        await lost.getByRole("button", { name: /^Retry/ }).click();
        await page.locator("#decisions li", { hasText: "Retried send_email" }).waitFor();
        await lost.waitFor({ state: "detached" });
        expect(f.sendEmail.calls).toHaveLength(2);

        await page.getByRole("tab", { name: "Audit trail" }).click();
        await page
          .locator("#audit-rows tr", { hasText: "approval-retry" })
          .filter({ hasText: lostId })
          .waitFor();
        const resumed = page.locator("#audit-rows tr", { hasText: "approval-resume" }).filter({
          hasText: approvalId,
        });
        await resumed.waitFor();
        expect(await resumed.locator("td[data-label=Outcome]").textContent()).toBe("ok");
        await page.setViewportSize(PHONE);
        await fitsWidth(page, PHONE.width);

        expect(problems).toEqual([]);
      } finally {
        await browser.close();
        await f.close();
      }
    },
  );
});
