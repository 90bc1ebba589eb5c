/**
 * @module `request_approval`: the model asks a human to approve a plan before it acts. The result is the
 * decision with who and when; a denial or an expiry is a result to act on, not an error. An approver's
 * note is the deployment's own person speaking, as in any approval, and is not fenced.
 */
import { z } from "zod";
import type { HumanReply, Unanswered } from "../../declaration/human-ask.js";
import { ASKING_IS_THE_CALL, humanTool, isoTime, notParked } from "./human-env.js";
import { isText } from "./questions.js";

const input = z.strictObject({
  plan: z
    .string()
    .trim()
    .min(1)
    .max(8_000)
    .refine(isText, "the plan has a control character; write plain text (tab and line breaks are fine)")
    .describe("what you intend to do, step by step, as the human should judge it"),
  reason: z
    .string()
    .trim()
    .min(1)
    .max(1_000)
    .refine(isText, "the reason has a control character; write plain text")
    .optional()
    .describe("why the plan needs their approval"),
});

const output = z.object({
  decision: z.enum(["approved", "denied", "expired"]),
  by: z.string().optional(),
  at: z.string().optional(),
  note: z.string().optional(),
});
type Output = z.infer<typeof output>;

export const requestApprovalSpec = humanTool({
  name: "request_approval",
  description:
    "Asks a human to approve a plan before you act on it. The call parks until someone decides in the approvals inbox; tell the person you asked and stop, then call again with the same tool call id to read the decision: approved or denied, by whom, when, with their note. Act on the plan only if it was approved; a denial or an expiry means do not.",
  category: "meta",
  effect: "read",
  approval: "always",
  overrideReason: ASKING_IS_THE_CALL,
  input,
  output,
  asksHuman: {
    answered: (_input: unknown, reply: HumanReply) =>
      decisionResult("approved", reply.by, reply.at, reply.note),
    unanswered: (_input: unknown, outcome: Unanswered) =>
      outcome.status === "denied"
        ? decisionResult("denied", outcome.by, outcome.at, outcome.note)
        : {
            content: `Nobody decided the plan before it expired at ${isoTime(outcome.expiresAt)}: it is not approved. Do not act on it; ask again if it still matters.`,
            data: { decision: "expired" } satisfies Output,
          },
  },
  run: () => notParked("request_approval"),
});

function decisionResult(decision: "approved" | "denied", by: string, at: number, note: string | undefined) {
  const said = note ? ` Their note: ${JSON.stringify(note)}` : "";
  const next = decision === "approved" ? "You may act on the plan as approved." : "Do not act on the plan.";
  const data: Output = { decision, by, at: isoTime(at) };
  if (note) data.note = note;
  return { content: `The plan was ${decision} by ${by} at ${isoTime(at)}.${said} ${next}`, data };
}
