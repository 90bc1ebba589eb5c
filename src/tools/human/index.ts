/** @module The human toolkit: ask_questions and request_approval. */
import type { ToolModule } from "../../registry/tool-module.js";
import { humanToolkit } from "./toolkit.js";

export { type Answer, type Answers, checkAnswers, QUESTION_LIMITS, type Question } from "./questions.js";
export { humanToolkit } from "./toolkit.js";

export const humanTools: ToolModule<unknown> = () => humanToolkit.withEnv({});
