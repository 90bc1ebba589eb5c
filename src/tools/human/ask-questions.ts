/**
 * @module `ask_questions`: the run parks with structured questions, and the call's result is the human's
 * answers once they reply in the inbox, or that nobody did (declined, or out of time).
 *
 * The answers are not fenced as untrusted: they come from a person of the deployment (the requester or an
 * approver of the tenant, authenticated by their key), whose words direct the agent as their chat
 * messages do, which is the point of asking. Each written answer is rendered as one JSON string, so a
 * pasted text cannot forge another answer's line.
 */
import { z } from "zod";
import type { HumanReply, Unanswered } from "../../declaration/human-ask.js";
import { ASKING_IS_THE_CALL, humanTool, isoTime, notParked } from "./human-env.js";
import { type Answers, checkAnswers, isText, type Question, QuestionsSchema } from "./questions.js";

const input = z.strictObject({
  questions: QuestionsSchema.describe("1 to 10 questions, each with its own id"),
  context: z
    .string()
    .trim()
    .min(1)
    .max(2_000)
    .refine(isText, "the context has a control character; write plain text")
    .optional()
    .describe("why you ask, in a sentence or two, shown above the questions"),
});
type Input = z.infer<typeof input>;

const output = z.object({
  status: z.enum(["answered", "declined", "expired"]),
  answeredBy: z.string().optional(),
  answeredAt: z.string().optional(),
  answers: z
    .record(z.string(), z.object({ choices: z.array(z.string()), text: z.string().optional() }))
    .optional(),
  note: z.string().optional(),
});
type Output = z.infer<typeof output>;

export const askQuestionsSpec = humanTool({
  name: "ask_questions",
  description:
    "Asks the person you work for one to ten questions and waits for their answers: each question has an id and text, and either choices (one, or several with multiple) or a written answer, required or not. The call parks until they answer in their inbox; tell them you asked and stop, then call again with the same tool call id to read the answers. If they decline or do not answer in time, the result says so: decide without them or ask differently.",
  category: "meta",
  effect: "read",
  approval: "always",
  overrideReason: ASKING_IS_THE_CALL,
  input,
  output,
  asksHuman: {
    checkAnswers: ({ questions }: Input, given: unknown) => checkAnswers(questions, given),
    answered: ({ questions }: Input, reply: HumanReply) => answeredResult(questions, reply),
    unanswered: (_input: Input, outcome: Unanswered) => unansweredResult(outcome),
  },
  run: () => notParked("ask_questions"),
});

function answeredResult(questions: readonly Question[], reply: HumanReply) {
  const answers = (reply.answers ?? {}) as Answers;
  const lines = questions.map((question) => {
    const answer = Object.hasOwn(answers, question.id) ? answers[question.id] : undefined;
    if (!answer) return `- ${question.id}: (not answered)`;
    const parts = [...answer.choices.map((choice) => JSON.stringify(choice))];
    if (answer.text !== undefined) parts.push(`wrote ${JSON.stringify(answer.text)}`);
    return `- ${question.id}: ${parts.join(", ")}`;
  });
  const note = reply.note ? `\nNote: ${JSON.stringify(reply.note)}` : "";
  const data: Output = { status: "answered", answeredBy: reply.by, answeredAt: isoTime(reply.at), answers };
  if (reply.note) data.note = reply.note;
  return {
    content: `${reply.by} answered at ${isoTime(reply.at)}:\n${lines.join("\n")}${note}`,
    data,
  };
}

function unansweredResult(outcome: Unanswered) {
  if (outcome.status === "expired") {
    return {
      content: `Nobody answered before the questions expired at ${isoTime(outcome.expiresAt)}; there are no answers. Go on without them, or ask again if you still need them.`,
      data: { status: "expired" } satisfies Output,
    };
  }
  const why = outcome.note ? `: ${JSON.stringify(outcome.note)}` : "";
  const data: Output = { status: "declined", answeredBy: outcome.by, answeredAt: isoTime(outcome.at) };
  if (outcome.note) data.note = outcome.note;
  return {
    content: `${outcome.by} declined to answer at ${isoTime(outcome.at)}${why}. There are no answers; do not ask the same again.`,
    data,
  };
}
