/**
 * A run asks its person questions through `toolreg serve` on its SQLite file, the server restarts while the
 * call is parked, and the questions are answered in the console in a real Chromium: the resumed call's
 * result, asked for again by the run, is the answers. A plan the run asks approval for is shown as written
 * and approved there, and the run reads the decision.
 */
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runToolreg } from "../cli/run-cli.js";
import { createKey, type ServeProcess, startServe } from "../support/serve-process.js";
import { CHROMIUM, launchChromium, SKIP } from "./chromium.js";

let served: ServeProcess | undefined;
let cwd: string | undefined;
afterEach(() => {
  served?.child.kill("SIGKILL");
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

const questions = {
  context: "Booking the team offsite",
  questions: [
    { id: "city", text: "Which city?", choices: ["Lisbon", "Porto"] },
    { id: "extras", text: "What else?", choices: ["dinner", "boat trip", "museum"], multiple: true },
    { id: "diet", text: "Any dietary needs?", required: false },
  ],
};

interface Envelope {
  ok: boolean;
  content?: string;
  data?: { status?: string; answeredBy?: string; answers?: Record<string, unknown>; decision?: string };
  error?: { code: string; details?: { approvalId?: string } };
}

/** The run's one call of `tool`, under a fixed tool-call id so asking again reads its result. */
async function ask(
  url: string,
  key: string,
  tool = "ask_questions",
  input: unknown = questions,
): Promise<{ status: number; envelope: Envelope }> {
  const response = await fetch(`${url}/api/v1/tools/${tool}/invoke`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      "x-toolreg-run-id": "offsite-run",
      "x-toolreg-tool-call-id": `${tool}-offsite`,
    },
    body: JSON.stringify(input),
  });
  return { status: response.status, envelope: (await response.json()) as Envelope };
}

async function stop(process: ServeProcess): Promise<void> {
  const exited = once(process.child, "exit");
  process.child.kill("SIGTERM");
  await exited;
}

describe(`ask_questions answered in the console (needs ${CHROMIUM})`, () => {
  it.skipIf(SKIP)(
    "parks the run's questions, keeps them through a restart, and returns the answers given in the console",
    { timeout: 90_000 },
    async () => {
      cwd = mkdtempSync(join(tmpdir(), "toolreg-questions-console-"));
      served = await startServe(cwd);
      const ada = await createKey(cwd, "local", "ada");
      const parked = await ask(served.url, ada);
      expect(parked.status).toBe(202);
      const approvalId = parked.envelope.error?.details?.approvalId as string;
      expect(approvalId).toBeTruthy();

      await stop(served);
      served = await startServe(cwd);
      const { url } = served;
      // Still parked after the restart: asking again answers with the same approval, not a second one.
      const waiting = await ask(url, ada);
      expect(waiting.envelope.error).toMatchObject({ code: "approval_required", details: { approvalId } });

      const login = await runToolreg(["keys", "login", "--url", url], cwd);
      expect(login.code, login.stderr).toBe(0);
      const loginUrl = /https?:\/\/\S+\/login\?token=\S+/.exec(login.stdout)?.[0] as string;
      expect(loginUrl).toBeTruthy();

      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        page.setDefaultTimeout(15_000);
        const problems: string[] = [];
        page.on("pageerror", (error) => problems.push(error.message));
        page.on("console", (message) => {
          if (message.type() === "error") problems.push(message.text());
        });
        await page.goto(loginUrl);
        await page.getByRole("tab", { name: /Approvals/ }).click();
        const card = page.locator("#approval-list > li", { hasText: approvalId });
        await card.waitFor();
        expect(await card.locator(".description").textContent()).toBe(
          "ada's agent asks 3 questions; its run waits for the answers.",
        );
        expect(await card.locator(".asked-context").textContent()).toBe("Booking the team offsite");
        expect(await card.locator("fieldset.question legend").allTextContents()).toEqual([
          "Which city? (required)",
          "What else? (required)",
          "Any dietary needs? (optional)",
        ]);
        // One city (radio buttons), several extras (checkboxes), and a written answer.
        await card.getByRole("radio", { name: "Porto" }).check();
        await card.getByRole("checkbox", { name: "museum" }).check();
        await card.getByRole("checkbox", { name: "dinner" }).check();
        await card.getByLabel("Your answer").fill("  one vegetarian  ");

        // The server refuses what does not fit and the card says so: here, an extra no longer picked.
        await card.getByRole("checkbox", { name: "museum" }).uncheck();
        await card.getByRole("checkbox", { name: "dinner" }).uncheck();
        await card.getByRole("button", { name: /^Send answers/ }).click();
        await card.locator(".alert", { hasText: "extras is required" }).waitFor();

        await card.getByRole("checkbox", { name: "museum" }).check();
        await card.getByRole("checkbox", { name: "dinner" }).check();
        await card.getByRole("button", { name: /^Send answers/ }).click();
        await page.locator("#decisions li", { hasText: "Answered ask_questions" }).waitFor();
        await card.waitFor({ state: "detached" });

        // A plan the run asks a person to approve: shown as written, approved here, the decision returned.
        const plan = { plan: "1. Book Porto for 12\n2. Pay the <b>deposit</b>" };
        const planned = await ask(url, ada, "request_approval", plan);
        const planId = planned.envelope.error?.details?.approvalId as string;
        const planCard = page.locator("#approval-list > li", { hasText: planId });
        await planCard.waitFor();
        expect(await planCard.locator(".plan").textContent()).toBe(plan.plan);
        expect(await planCard.locator("b").count()).toBe(0);
        await planCard.getByRole("button", { name: /^Approve/ }).click();
        await planCard.waitFor({ state: "detached" });
        expect((await ask(url, ada, "request_approval", plan)).envelope).toMatchObject({
          ok: true,
          data: { decision: "approved", by: "operator" },
        });
        expect(problems.filter((problem) => !problem.includes("422"))).toEqual([]);
      } finally {
        await browser.close();
      }

      // The run asks again under its tool call: the resumed call's result is the answers.
      const answered = await ask(url, ada);
      expect(answered.status).toBe(200);
      expect(answered.envelope).toMatchObject({
        ok: true,
        data: {
          status: "answered",
          answeredBy: "operator",
          answers: {
            city: { choices: ["Porto"] },
            extras: { choices: ["dinner", "museum"] },
            diet: { choices: [], text: "one vegetarian" },
          },
        },
      });
    },
  );
});
