/**
 * @module Projects v2 answers cut to what a model acts on. A field is its name and type, with a single
 * select's options and an iteration field's iterations (and their ids, to tell two alike apart); an item is
 * what it holds and its values by field name. Titles and text values are written by people: untrusted.
 */
import { capText } from "../github-shapes.js";

/** Characters of one text field value a tool returns before cutting. */
export const FIELD_TEXT_CAP = 1_000;

export interface IterationNode {
  id: string;
  title: string;
  startDate: string;
  duration: number;
}

/** A field as PROJECT_FIELD_PARTS selects it. */
export interface FieldNode {
  id: string;
  name: string;
  dataType: string;
  options?: { id: string; name: string }[];
  configuration?: { iterations: IterationNode[]; completedIterations: IterationNode[] };
}

interface ContentNode {
  number?: number;
  title?: string;
  issueState?: string;
  pullRequestState?: string;
  url?: string;
  repository?: { nameWithOwner: string };
}

/** A field value as PROJECT_ITEM_PARTS selects it; a value of a kind it does not select arrives as `{}`. */
interface ValueNode {
  text?: string | null;
  number?: number | null;
  date?: string | null;
  name?: string | null;
  title?: string;
  field?: { name: string; dataType: string };
}

/** An item as PROJECT_ITEM_PARTS selects it. */
export interface ItemNode {
  type: string;
  isArchived: boolean;
  content: ContentNode | null;
  fieldValues: { nodes: (ValueNode | null)[] | null };
}

export function fieldSummary(field: FieldNode) {
  const iterations = field.configuration && [
    ...field.configuration.iterations.map((iteration) => ({ ...iteration, completed: false })),
    ...field.configuration.completedIterations.map((iteration) => ({ ...iteration, completed: true })),
  ];
  return {
    name: field.name,
    type: field.dataType,
    id: field.id,
    ...(field.options ? { options: field.options } : {}),
    ...(iterations ? { iterations } : {}),
  };
}

export type FieldSummary = ReturnType<typeof fieldSummary>;
export type ItemSummary = ReturnType<typeof shape>;

/** A field in one line: `Status (single select: Todo, In Progress, Done)`. */
export function fieldLine(field: FieldSummary): string {
  const type = field.type.toLowerCase().replaceAll("_", " ");
  if (field.options)
    return `${field.name} (${type}: ${field.options.map((option) => option.name).join(", ")})`;
  if (field.iterations) {
    const iterations = field.iterations.map(
      (iteration) =>
        `${iteration.title} from ${iteration.startDate}${iteration.completed ? ", completed" : ""}`,
    );
    return `${field.name} (${type}: ${iterations.join("; ")})`;
  }
  return `${field.name} (${type})`;
}

/** An item in one line: what it is, where, and its values. */
export function itemLine(item: ItemSummary): string {
  if (item.type === "REDACTED") return "- an item this credential may not see (REDACTED)";
  const what =
    item.type === "DRAFT_ISSUE"
      ? `draft "${item.title}"`
      : `${item.type === "ISSUE" ? "issue" : "pull request"} ${item.repository}#${item.number} "${item.title}" (${item.state?.toLowerCase()})`;
  const values = Object.entries(item.fields).map(([name, value]) => `${name}: ${value}`);
  return `- ${what}${item.archived ? " [archived]" : ""}${values.length ? ` — ${values.join("; ")}` : ""}`;
}

export function itemSummary(item: ItemNode): { item: ItemSummary; textCut: boolean } {
  let textCut = false;
  const fields: Record<string, string | number> = {};
  for (const value of item.fieldValues.nodes ?? []) {
    // The Title field repeats the item's title; a value of a kind not selected has no field.
    if (!value?.field || value.field.dataType === "TITLE") continue;
    const shown = shownValue(value);
    if (shown === undefined) continue;
    if (typeof shown === "string" && value.text !== undefined) {
      const capped = capText(shown, FIELD_TEXT_CAP);
      textCut ||= capped.truncated;
      fields[value.field.name] = capped.text;
    } else {
      fields[value.field.name] = shown;
    }
  }
  return { item: shape(item, fields), textCut };
}

function shape(item: ItemNode, fields: Record<string, string | number>) {
  const content = item.content ?? {};
  const state = content.issueState ?? content.pullRequestState;
  return {
    type: item.type,
    ...(content.number === undefined ? {} : { number: content.number }),
    ...(content.title === undefined ? {} : { title: content.title }),
    ...(state === undefined ? {} : { state }),
    ...(content.repository ? { repository: content.repository.nameWithOwner } : {}),
    ...(content.url === undefined ? {} : { url: content.url }),
    archived: item.isArchived,
    fields,
  };
}

function shownValue(value: ValueNode): string | number | undefined {
  for (const candidate of [value.text, value.number, value.date, value.name, value.title]) {
    if (candidate !== undefined && candidate !== null) return candidate;
  }
  return undefined;
}
