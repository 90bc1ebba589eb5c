/**
 * @module A tool whose call is a question to a human (ask_questions, request_approval). It always parks
 * for a human; its result is made from the human's reply when it resumes, or from the lack of one (a
 * denial, an expiry), which the model reads as an outcome to act on, not as an error.
 */
/** What the human replied, as recorded with the decision. */
export interface HumanReply {
  by: string;
  at: number;
  note: string | undefined;
  /** The answers as `checkAnswers` returned them; undefined for a tool that asks none. */
  answers: unknown;
}

/** Why no human approved: who denied it and when, or that its time ran out. */
export type Unanswered =
  | { status: "denied"; by: string; at: number; note: string | undefined }
  | { status: "expired"; expiresAt: number };

export type AnswersCheck = { ok: true; answers: unknown } | { ok: false; message: string };

/** `Out`: what the tool's `run` returns (its `ToolOutput`). */
export interface HumanAsk<I, Out> {
  /**
   * Checks a human's answers against the call's (parsed) input: what to store, or why they are refused,
   * in words for the human. Absent, the call takes no answers: approve or deny only.
   */
  checkAnswers?(input: I, answers: unknown): AnswersCheck;
  /** The result once a human approved (or answered). */
  answered(input: I, reply: HumanReply): Out;
  /** The result when no human approved. */
  unanswered(input: I, outcome: Unanswered): Out;
}
