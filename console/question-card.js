/**
 * @module The inbox cards of calls that put something to a person: ask_questions shows its questions as a
 * form (radio buttons for one choice, checkboxes for several, a text box where writing is allowed) sent
 * with "Send answers"; request_approval shows the plan to approve or deny. The server checks the answers
 * against the questions again; this form only makes a valid answer easy to give.
 */
import { approvalCard } from "./approval-card.js";
import { el } from "./dom.js";

/** The card for one inbox entry: a question form, a plan, or the plain approval card. */
export function inboxCard(record, decide) {
  const input = record.input ?? {};
  if (record.status === "pending" && record.toolName === "ask_questions" && Array.isArray(input.questions)) {
    const count = input.questions.length === 1 ? "a question" : `${input.questions.length} questions`;
    return approvalCard(record, decide, {
      lead: `${record.requestedBy}'s agent asks ${count}; its run waits for the answers.`,
      body: questionsForm(record.id, input),
      decisions: ["answer", "deny"],
      labels: { deny: "Decline" },
    });
  }
  if (
    record.status === "pending" &&
    record.toolName === "request_approval" &&
    typeof input.plan === "string"
  ) {
    return approvalCard(record, decide, {
      lead: `${record.requestedBy}'s agent asks approval for a plan before it acts on it.`,
      body: [
        el("h3", {}, "Plan"),
        el("p", { class: "plan" }, input.plan),
        typeof input.reason === "string" && el("p", { class: "muted" }, `Why it asks: ${input.reason}`),
      ],
    });
  }
  return approvalCard(record, decide);
}

/** The answers given on a question card, as the answer route takes them; unanswered questions left out. */
export function answersOf(card) {
  const answers = {};
  for (const fieldset of card.querySelectorAll("fieldset.question")) {
    const choices = [...fieldset.querySelectorAll("input:checked")].map((input) => input.value);
    const text = fieldset.querySelector("textarea")?.value.trim() ?? "";
    if (choices.length === 0 && text === "") continue;
    answers[fieldset.dataset.question] = text === "" ? { choices } : { choices, text };
  }
  return answers;
}

function questionsForm(approvalId, { questions, context }) {
  return [
    typeof context === "string" && el("p", { class: "asked-context" }, context),
    el("h3", {}, "Questions"),
    ...questions.map((question) => questionField(approvalId, question)),
  ];
}

function questionField(approvalId, question) {
  const name = `answer-${approvalId}-${question.id}`;
  const choices = Array.isArray(question.choices) ? question.choices : [];
  const writes = question.allowText ?? choices.length === 0;
  return el(
    "fieldset",
    { class: "question", "data-question": question.id },
    el(
      "legend",
      {},
      question.text,
      el("span", { class: "muted" }, question.required === false ? " (optional)" : " (required)"),
    ),
    choices.map((choice) =>
      el(
        "label",
        { class: "choice" },
        el("input", { type: question.multiple ? "checkbox" : "radio", name, value: choice }),
        ` ${choice}`,
      ),
    ),
    writes &&
      el(
        "label",
        { class: "field" },
        choices.length > 0 ? "Or write your own answer" : "Your answer",
        el("textarea", { name: `${name}-text`, maxlength: 4000, rows: 2 }),
      ),
  );
}
