/**
 * @module The human toolkit: questions and a plan put to a person, parked as approvals so they survive a
 * restart and are answered once. Needs nothing but the seam.
 */
import { z } from "zod";
import { defineToolkit } from "../toolkit/define-toolkit.js";
import { askQuestionsSpec } from "./ask-questions.js";
import { requestApprovalSpec } from "./request-approval.js";

export const humanToolkit = defineToolkit({
  id: "human",
  version: "1.0.0",
  package: "toolreg",
  description:
    "Questions and plans put to a person: ask_questions and request_approval, answered in the approvals inbox.",
  config: z.strictObject({}),
  auth: { kind: "none" },
  tools: [askQuestionsSpec, requestApprovalSpec],
  // Reads that always ask: the question to a person is the call, so it parks as an approval.
  reviewedOverrides: [
    { tool: "ask_questions", field: "approval" },
    { tool: "request_approval", field: "approval" },
  ],
  bind: () => ({}),
});
