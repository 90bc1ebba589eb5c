import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runToolreg } from "./run-cli.js";

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "toolreg-answer-"));
});

const questions = JSON.stringify({
  questions: [
    { id: "size", text: "Which size?", choices: ["S", "M", "L"] },
    { id: "extras", text: "Extras?", choices: ["gift wrap", "card"], multiple: true, required: false },
    { id: "why", text: "Why?", required: false },
  ],
});

describe("toolreg approvals answer", () => {
  it("answers a parked ask_questions call from the terminal once, and refuses answers that do not fit", async () => {
    const parked = await runToolreg(["call", "ask_questions", "--input", questions], cwd);
    expect(parked.code).toBe(1);
    const id = JSON.parse(parked.stdout).error.details.approvalId as string;
    expect(parked.stderr).toContain(
      `answer with: toolreg approvals answer ${id} --answer QUESTION-ID=ANSWER`,
    );

    const wrong = await runToolreg(["approvals", "answer", id, "--answer", "size=XL"], cwd);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/size: "XL" is not offered; pick from "S", "M", "L"/);
    const malformed = await runToolreg(["approvals", "answer", id, "--answer", "size"], cwd);
    expect(malformed.code).not.toBe(0);
    expect(malformed.stderr).toMatch(/--answer size: write it as question-id=answer/);

    const answered = await runToolreg(
      [
        "approvals",
        "answer",
        id,
        "--answer",
        "size=M",
        "--answer",
        "extras=card",
        "--answer",
        "extras=gift wrap",
        "--answer",
        "why=a=b, really",
      ],
      cwd,
    );
    expect(answered.code, answered.stderr).toBe(0);
    expect(JSON.parse(answered.stdout)).toMatchObject({
      ok: true,
      data: {
        status: "answered",
        answeredBy: "operator",
        answers: {
          size: { choices: ["M"] },
          extras: { choices: ["gift wrap", "card"] },
          why: { choices: [], text: "a=b, really" },
        },
      },
    });
    const again = await runToolreg(["approvals", "answer", id, "--answers-json", '{"size":"S"}'], cwd);
    expect(again).toMatchObject({
      code: 1,
      stderr: `error: approval ${id} was already decided (executed)\n`,
    });
  });
});
