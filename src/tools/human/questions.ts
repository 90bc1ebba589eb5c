/**
 * @module The questions ask_questions puts to a human, and the check a human's answers pass before they
 * are recorded: every refusal names the question and what to change, and nothing is recorded on one.
 */
import { z } from "zod";
import type { AnswersCheck } from "../../declaration/human-ask.js";

export const QUESTION_LIMITS = {
  questions: 10,
  choices: 20,
  questionChars: 1_000,
  choiceChars: 200,
  /** A free-text answer, after trimming. */
  answerChars: 4_000,
} as const;

// No dot: the MCP form names a question's write-in field `<id>.text` (src/mcp/serve/questions-form.ts).
const ID = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;
// PostgreSQL's JSONB refuses a NUL and a lone surrogate; the rest would forge lines in an inbox.
const CONTROL = /(?![\t\n\r])\p{Cc}/u;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Text every store keeps as written: no control character but tab and line breaks, no lone surrogate. */
export const isText = (text: string) => !CONTROL.test(text) && !LONE_SURROGATE.test(text);
const text = (max: number, what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine(isText, `${what} has a control character; write plain text (tab and line breaks are fine)`);

export const QuestionSchema = z
  .strictObject({
    id: z
      .string()
      .regex(ID, "a question id is a letter then up to 39 letters, digits, _ or -")
      .describe("names the answer, e.g. q1 or deadline"),
    text: text(QUESTION_LIMITS.questionChars, "a question").describe("the question, as the human reads it"),
    choices: z
      .array(text(QUESTION_LIMITS.choiceChars, "a choice"))
      .min(2)
      .max(QUESTION_LIMITS.choices)
      .refine((choices) => new Set(choices).size === choices.length, "the choices must differ")
      .optional()
      .describe("the answers to pick from; omit for a free-text question"),
    multiple: z.boolean().default(false).describe("with choices: the human may pick several"),
    allowText: z
      .boolean()
      .optional()
      .describe(
        "whether the human may write an answer of their own; default true without choices, false with",
      ),
    required: z.boolean().default(true).describe("whether the question must be answered"),
  })
  .refine((question) => question.choices !== undefined || question.allowText !== false, {
    message: "a question without choices must allow a written answer",
  })
  .refine((question) => question.choices !== undefined || !question.multiple, {
    message: "multiple needs choices to pick from",
  });
export type Question = z.infer<typeof QuestionSchema>;

export const QuestionsSchema = z
  .array(QuestionSchema)
  .min(1)
  .max(QUESTION_LIMITS.questions)
  .refine(
    (questions) => new Set(questions.map((question) => question.id)).size === questions.length,
    "each question needs its own id",
  );

/** One question's answer as recorded: the choices picked (in the order offered) and the words written. */
export interface Answer {
  choices: string[];
  text?: string;
}
export type Answers = Record<string, Answer>;

/** Whether the human may write an answer of their own. */
export const allowsText = (question: Question) => question.allowText ?? question.choices === undefined;

/**
 * Checks answers against the questions. Each answer is a string (a choice if it names one, else written
 * words), a list of choices, or `{ choices, text }`; a question left out is unanswered. Refused when an
 * answer names no question, picks a choice not offered (or several where one is asked), writes where no
 * writing is allowed, or leaves a required question unanswered.
 */
export function checkAnswers(questions: readonly Question[], given: unknown): AnswersCheck {
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    return refuse("answers are an object of question id → answer");
  }
  const byId = new Map(questions.map((question) => [question.id, question]));
  const unknown = Object.keys(given).filter((id) => !byId.has(id));
  if (unknown.length > 0) {
    return refuse(
      `there is no question ${unknown.map((id) => JSON.stringify(id.slice(0, 40))).join(", ")}; the questions are ${[...byId.keys()].join(", ")}`,
    );
  }
  const answers: Answers = {};
  for (const question of questions) {
    // Own keys only: a question named "constructor" is not answered by Object's prototype.
    const raw = Object.hasOwn(given, question.id)
      ? (given as Record<string, unknown>)[question.id]
      : undefined;
    const answer = raw === undefined || raw === null ? undefined : answerOf(question, raw);
    if (typeof answer === "string") return refuse(`${question.id}: ${answer}`);
    if (answer === undefined || (answer.choices.length === 0 && answer.text === undefined)) {
      if (question.required)
        return refuse(`${question.id} is required: answer "${question.text.slice(0, 80)}"`);
      continue;
    }
    answers[question.id] = answer;
  }
  return { ok: true, answers };
}

/** One answer in its recorded form, or why it does not fit its question. */
function answerOf(question: Question, raw: unknown): Answer | string {
  const offered = question.choices ?? [];
  let picked: unknown[] = [];
  let written: unknown;
  if (typeof raw === "string") {
    // Where nothing may be written, a string can only mean a choice.
    if (offered.includes(raw) || (!allowsText(question) && raw.trim() !== "")) picked = [raw];
    else written = raw;
  } else if (Array.isArray(raw)) {
    picked = raw;
  } else if (typeof raw === "object" && raw !== null) {
    const { choices, text: words, ...rest } = raw as Record<string, unknown>;
    if (Object.keys(rest).length > 0) return "an answer is { choices, text }";
    if (choices !== undefined && !Array.isArray(choices)) return "choices is a list";
    picked = (choices as unknown[] | undefined) ?? [];
    written = words;
  } else {
    return "an answer is a string, a list of choices, or { choices, text }";
  }
  const foreign = picked.filter((choice) => typeof choice !== "string" || !offered.includes(choice));
  if (foreign.length > 0) {
    const shown = foreign.map((choice) => JSON.stringify(String(choice).slice(0, 80))).join(", ");
    return offered.length === 0
      ? `it has no choices to pick (${shown}); write the answer instead`
      : `${shown} is not offered; pick from ${offered.map((choice) => JSON.stringify(choice)).join(", ")}`;
  }
  if (new Set(picked).size !== picked.length) return "a choice is picked twice";
  if (picked.length > 1 && !question.multiple) return "pick one choice";
  const answer: Answer = { choices: offered.filter((choice) => picked.includes(choice)) };
  if (written !== undefined) {
    if (typeof written !== "string") return "a written answer is text";
    const trimmed = written.trim();
    if (trimmed !== "") {
      if (!allowsText(question)) {
        return `it takes no written answer; pick from ${offered.map((choice) => JSON.stringify(choice)).join(", ")}`;
      }
      if (trimmed.length > QUESTION_LIMITS.answerChars) {
        return `the written answer is over ${QUESTION_LIMITS.answerChars} characters; shorten it`;
      }
      if (!isText(trimmed)) return "the written answer has a control character; write plain text";
      answer.text = trimmed;
    }
  }
  return answer;
}

function refuse(message: string): AnswersCheck {
  return { ok: false, message };
}
