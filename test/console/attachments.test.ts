/**
 * The console's attachments page in a real browser against a real registry server: upload a file for every
 * run and one for a named run, see them listed (a run's only with its run named), find that another person
 * of the tenant sees none of them, refuse a file over the cap before sending it, and remove one.
 */
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium, SKIP } from "./chromium.js";
import { startConsoleFixture } from "./console-fixture.js";

const scratch = mkdtempSync(join(tmpdir(), "toolreg-console-attachments-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe(`the console's attachments page (needs ${CHROMIUM})`, () => {
  it.skipIf(SKIP)(
    "uploads, lists and removes the signed-in person's files, which nobody else sees",
    { timeout: 60_000 },
    async () => {
      const f = await startConsoleFixture();
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        page.setDefaultTimeout(10_000);
        const problems: string[] = [];
        page.on("pageerror", (error) => problems.push(error.message));
        const uploads: string[] = [];
        page.on("request", (request) => {
          if (request.method() === "POST" && request.url() === `${f.url}/api/v1/attachments`)
            uploads.push(request.headers()["content-type"] ?? "");
        });

        await page.goto(f.loginUrl);
        await page.locator("#who", { hasText: "alice" }).waitFor();
        await page.getByRole("tab", { name: "Attachments" }).click();
        expect(new URL(page.url()).hash).toBe("#attachments");
        await page.locator("#attachments-status", { hasText: "No attachment yet." }).waitFor();

        const form = page.locator("#attachment-form");
        await form.locator("input[name=file]").setInputFiles({
          name: "plan.md",
          mimeType: "text/markdown",
          buffer: Buffer.from("# Plan\nShip on Friday.\n"),
        });
        await form.getByRole("button", { name: "Upload" }).click();
        await page.locator("#attachments-status", { hasText: "Uploaded plan.md (23 B)." }).waitFor();
        const row = page.locator("#attachment-rows tr", { hasText: "plan.md" });
        expect((await row.locator("td").allTextContents()).slice(0, 4)).toEqual([
          "plan.md",
          "text/markdown",
          "23 B",
          "every run",
        ]);
        expect(uploads).toEqual([expect.stringMatching(/^multipart\/form-data; boundary=/)]);

        // A run's file: listed while its run is named, not otherwise.
        await form.locator("input[name=runId]").fill("run-7");
        await form.locator("input[name=file]").setInputFiles({
          name: "totals.csv",
          mimeType: "text/csv",
          buffer: Buffer.from("month,total\nmay,42\n"),
        });
        await form.getByRole("button", { name: "Upload" }).click();
        const scoped = page.locator("#attachment-rows tr", { hasText: "totals.csv" });
        await scoped.locator("td", { hasText: "run-7" }).waitFor();
        await form.locator("input[name=runId]").fill("");
        await form.locator("input[name=runId]").dispatchEvent("change");
        await scoped.waitFor({ state: "detached" });
        await row.waitFor();

        // Another person of the same tenant sees none of alice's files.
        const theirs = await fetch(`${f.url}/api/v1/attachments?runId=run-7`, {
          headers: { authorization: `Bearer ${f.agentKey}` },
        });
        expect(await theirs.json()).toEqual({ attachments: [] });

        // Over the cap: refused on the page, nothing sent.
        // A sparse file on disk: the browser is handed its path, not 25 MiB over the protocol.
        const huge = join(scratch, "huge.bin");
        writeFileSync(huge, "");
        truncateSync(huge, 25 * 1024 * 1024 + 1);
        await form.locator("input[name=file]").setInputFiles(huge);
        await form.getByRole("button", { name: "Upload" }).click();
        await page
          .locator("#attachments-status.status-error", { hasText: "huge.bin is over the 25.0 MiB" })
          .waitFor();
        expect(uploads).toHaveLength(2);

        // Past a page of 50, a More button loads the rest in its place.
        await page.evaluate(async () => {
          const { csrfToken } = (await (await fetch("/api/v1/session")).json()) as { csrfToken: string };
          for (let index = 0; index < 51; index++) {
            const form = new FormData();
            form.append("file", new Blob([`note ${index}`], { type: "text/plain" }), `note-${index}.txt`);
            const sent = await fetch("/api/v1/attachments", {
              method: "POST",
              headers: { "x-csrf-token": csrfToken },
              body: form,
            });
            if (sent.status !== 201) throw new Error(`upload ${index}: ${sent.status}`);
          }
        });
        // Listed again for a run of no file of its own: the 52 of every run.
        await form.locator("input[name=runId]").fill("run-8");
        await form.locator("input[name=runId]").dispatchEvent("change");
        const listed = page.locator("#attachment-rows tr[data-id]");
        await page.locator("#attachment-rows").getByRole("button", { name: "More" }).waitFor();
        expect(await listed.count()).toBe(50);
        await page.locator("#attachment-rows").getByRole("button", { name: "More" }).click();
        await page.locator("#attachment-rows tr", { hasText: "note-0.txt" }).waitFor();
        expect(await listed.count()).toBe(52);
        expect(await page.locator("#attachment-rows").getByRole("button", { name: "More" }).count()).toBe(0);

        await row.getByRole("button", { name: "Remove plan.md" }).click();
        await page.locator("#attachments-status", { hasText: "Removed plan.md." }).waitFor();
        await row.waitFor({ state: "detached" });
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
        await f.close();
      }
    },
  );
});
