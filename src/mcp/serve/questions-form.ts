/**
 * @module A parked ask_questions call as an MCP elicitation form: one field per question (a pick-one list, a
 * pick-several list, or text; a question with choices that also takes writing gets a text field beside
 * it), and the client's reply read back as answers for the seam to check against the questions.
 */
import type { ElicitRequestFormParams } from "@modelcontextprotocol/sdk/types.js";

/** A question as ask_questions takes it (see src/tools/human/questions.ts): the raw arguments, no defaults applied. */
export interface AskedQuestion {
  id: string;
  text: string;
  choices?: string[];
  multiple?: boolean;
  allowText?: boolean;
  required?: boolean;
}

type FormSchema = ElicitRequestFormParams["requestedSchema"];

/**
 * The text field beside a question with choices that also takes a written answer. A question id holds no
 * dot (src/tools/human/questions.ts), so no question's own field can share this name.
 */
const textField = (id: string) => `${id}.text`;

export function questionsForm(questions: readonly AskedQuestion[]): FormSchema {
  const properties: FormSchema["properties"] = {};
  const required: string[] = [];
  for (const question of questions) {
    const { id, text: title, choices } = question;
    if (!choices) {
      properties[id] = { type: "string", title, maxLength: 4_000 };
    } else if (question.multiple) {
      properties[id] = { type: "array", title, items: { type: "string", enum: [...choices] } };
    } else {
      properties[id] = { type: "string", title, enum: [...choices] };
    }
    if (choices && question.allowText === true) {
      properties[textField(id)] = {
        type: "string",
        title: `${title} (or write your own answer)`,
        maxLength: 4_000,
      };
    } else if (question.required !== false) {
      // With a text field beside it, either one answers: the seam checks which.
      required.push(id);
    }
  }
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
}

/** The client's reply as answers: what each question's field(s) held, unchecked. */
export function answersFromForm(
  questions: readonly AskedQuestion[],
  content: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const question of questions) {
    const field = (name: string) => (content && Object.hasOwn(content, name) ? content[name] : undefined);
    const value = field(question.id);
    const written = question.choices ? field(textField(question.id)) : undefined;
    if (!question.choices) {
      if (value !== undefined) answers[question.id] = { text: value };
      continue;
    }
    const picked = value === undefined || value === "" ? [] : Array.isArray(value) ? value : [value];
    if (picked.length > 0 || (typeof written === "string" && written.trim() !== "")) {
      answers[question.id] = { choices: picked, ...(written === undefined ? {} : { text: written }) };
    }
  }
  return answers;
}
