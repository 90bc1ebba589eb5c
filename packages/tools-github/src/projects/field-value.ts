/**
 * @module A value a model names — an option by its name, an iteration by its title, a date, a number, a
 * text — turned into the ProjectV2FieldValue GitHub takes, from the project's own fields. GitHub itself
 * takes only ids and refuses a name with "Did not receive a single select option Id"; here an unknown
 * field, option or iteration is refused before any write, naming the valid ones.
 * https://docs.github.com/en/graphql/reference/input-objects#projectv2fieldvalue
 */
import { ToolFailure } from "toolreg/toolkit";
import type { FieldNode } from "./project-shapes.js";

/** GitHub's ProjectV2FieldValue: exactly one member set. */
export type ProjectFieldValueInput =
  | { text: string }
  | { number: number }
  | { date: string }
  | { singleSelectOptionId: string }
  | { iterationId: string };

export interface ResolvedValue {
  field: FieldNode;
  value: ProjectFieldValueInput;
  /** The value as the model named it, resolved: the option's or iteration's exact name. */
  shown: string | number;
}

/** Field types updateProjectV2ItemFieldValue sets; the rest belong to the issue or pull request itself. */
const SETTABLE = ["SINGLE_SELECT", "ITERATION", "TEXT", "NUMBER", "DATE"];

export function resolveFieldValue(
  fields: FieldNode[],
  fieldName: string,
  value: string | number,
): ResolvedValue {
  const settable = fields.filter((field) => SETTABLE.includes(field.dataType));
  const field = pick(fields, fieldName, (candidate) => candidate.name);
  if (!field) {
    throw refusal(
      `the project has no field "${fieldName}"`,
      "fields you can set",
      settable.map(describeField),
    );
  }
  const text = String(value);
  switch (field.dataType) {
    case "SINGLE_SELECT": {
      const options = field.options ?? [];
      const option = pick(options, text, (candidate) => candidate.name);
      if (!option) {
        throw refusal(
          `"${text}" is not an option of ${field.name}`,
          "its options",
          options.map((o) => o.name),
        );
      }
      return { field, value: { singleSelectOptionId: option.id }, shown: option.name };
    }
    case "ITERATION": {
      const iterations = [
        ...(field.configuration?.iterations ?? []),
        ...(field.configuration?.completedIterations ?? []),
      ];
      const iteration = pick(iterations, text, (candidate) => candidate.title);
      if (!iteration) {
        throw refusal(
          `"${text}" is not an iteration of ${field.name}`,
          "its iterations",
          iterations.map((i) => `${i.title} (from ${i.startDate})`),
        );
      }
      return { field, value: { iterationId: iteration.id }, shown: iteration.title };
    }
    case "NUMBER": {
      const number =
        typeof value === "number" ? value : /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : NaN;
      if (!Number.isFinite(number))
        throw refusal(`${field.name} is a number field and "${text}" is not a number`);
      return { field, value: { number }, shown: number };
    }
    case "DATE": {
      if (!isCalendarDate(text)) {
        throw refusal(`${field.name} is a date field and takes a date as YYYY-MM-DD, not "${text}"`);
      }
      return { field, value: { date: text }, shown: text };
    }
    case "TEXT":
      return { field, value: { text }, shown: text };
    default:
      throw refusal(
        `${field.name} (${field.dataType.toLowerCase()}) cannot be set on a project item: assignees, labels, milestone, repository and title belong to the issue or pull request itself`,
        "fields you can set",
        settable.map(describeField),
      );
  }
}

/** The exact name, else the one name equal ignoring case; two that differ only in case are not guessed between. */
function pick<T>(candidates: readonly T[], wanted: string, nameOf: (candidate: T) => string): T | undefined {
  const exact = candidates.find((candidate) => nameOf(candidate) === wanted);
  if (exact) return exact;
  const folded = candidates.filter((candidate) => nameOf(candidate).toLowerCase() === wanted.toLowerCase());
  return folded.length === 1 ? folded[0] : undefined;
}

function describeField(field: FieldNode): string {
  if (field.dataType === "SINGLE_SELECT") {
    return `${field.name} (single select: ${(field.options ?? []).map((option) => option.name).join(", ")})`;
  }
  return `${field.name} (${field.dataType.toLowerCase()})`;
}

function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

function refusal(problem: string, validLabel?: string, valid: string[] = []): ToolFailure {
  return new ToolFailure(
    "invalid_input",
    validLabel ? `${problem}; ${validLabel}: ${valid.join("; ") || "none"}` : problem,
    { retryable: false, details: validLabel ? { valid } : {} },
  );
}
