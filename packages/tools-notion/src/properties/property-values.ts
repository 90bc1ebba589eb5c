/**
 * @module A model's property values checked against the schema they are written into, and turned into the
 * objects Notion takes (developers.notion.com/reference/page-property-values). Every unknown name and every
 * value of the wrong kind is listed in one refusal, with the real names and types, before anything is sent:
 * a model fixes all of them in its next call instead of one a turn.
 */
import type { UpdatePageParameters } from "@notionhq/client";
import { ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { toRichText } from "../blocks/rich-text.js";
import { dashedId, idField, textProblem } from "../notion-inputs.js";
import type { PageSchema, PropertyShape } from "./property-schema.js";

/** The longest text one property takes: a rich_text value; every other text is at most TEXT_MAX. */
const RICH_TEXT_VALUE_MAX = 20_000;
/** Notion's bound on a title and on the other text values it stores (select names are 100, checked below). */
const TEXT_MAX = 2000;

/** What a model gives for one property: text, a number, a flag, a list of names or ids, or null to clear it. */
export const PropertyInputSchema = z.union([
  // Line breaks and tabs only for rich_text: convert() refuses them in every other type.
  z
    .string()
    .max(RICH_TEXT_VALUE_MAX)
    .refine((text) => textProblem(text, { lines: true }) === undefined, {
      message: "must not contain control or invisible characters (line breaks and tabs only in rich_text)",
    }),
  z.number().refine(Number.isFinite, "must be a finite number"),
  z.boolean(),
  z
    .array(
      z
        .string()
        .min(1)
        .max(TEXT_MAX)
        .refine((text) => textProblem(text) === undefined, "must be one line without control characters"),
    )
    .max(100),
  z.null(),
]);
export type PropertyInput = z.infer<typeof PropertyInputSchema>;

const PropertyNameSchema = z
  .string()
  .min(1)
  .max(200)
  .refine(
    (name) => textProblem(name) === undefined,
    "a property name is one line without control characters",
  );

/** Properties by name, as a model gives them (at most 100: Notion's widest data sources stay well under). */
export const PropertiesInputSchema = z
  .record(PropertyNameSchema, PropertyInputSchema)
  .refine((properties) => Object.keys(properties).length <= 100, "at most 100 properties")
  .meta({
    description:
      "property values by their exact name in the data source: text for title, rich_text, select, status, url, email, phone_number and date (YYYY-MM-DD or ISO date-time); a number for number; true/false for checkbox; a list of option names for multi_select, of user ids for people, of page ids for relation; null clears a value (an empty list for multi_select, people and relation; unchecked for checkbox)",
  });

export type PropertyValues = NonNullable<UpdatePageParameters["properties"]>;
type PropertyValue = PropertyValues[string];

/** Types Notion computes: a write to one is refused by Notion, so it is refused here first. */
const COMPUTED = new Set([
  "formula",
  "rollup",
  "created_time",
  "created_by",
  "last_edited_time",
  "last_edited_by",
  "unique_id",
  "button",
  "verification",
]);

const DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})?)?$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const NOTION_ID = idField("page");

/** The request's `properties`, or a precondition_failed naming every problem and the schema's real properties. */
export function propertyValues(
  input: Readonly<Record<string, PropertyInput>>,
  schema: PageSchema,
): PropertyValues {
  const values: PropertyValues = {};
  const unknown: string[] = [];
  const invalid: string[] = [];
  for (const [name, value] of Object.entries(input)) {
    // Own properties only: "constructor" is not a property of every schema.
    const shape = Object.hasOwn(schema.properties, name) ? schema.properties[name] : undefined;
    if (shape === undefined) {
      unknown.push(name);
      continue;
    }
    const converted = convert(name, shape, value);
    if (typeof converted === "string") invalid.push(converted);
    else values[name] = converted;
  }
  if (unknown.length === 0 && invalid.length === 0) return values;
  const real = Object.entries(schema.properties).map(([name, shape]) => `"${name}" (${shape.type})`);
  const problems = [
    ...unknown.map((name) => `"${name}" is not a property of ${schema.where}${nearest(name, schema)}`),
    ...invalid,
  ];
  throw new ToolFailure(
    "precondition_failed",
    `nothing was written: ${problems.join("; ")}. Its properties are: ${real.join(", ")}`,
    {
      retryable: false,
      details: {
        unknownProperties: unknown,
        invalidValues: invalid,
        properties: Object.fromEntries(
          Object.entries(schema.properties).map(([name, shape]) => [name, shape.type]),
        ),
      },
    },
  );
}

/** The name of the schema's title property (every data source has exactly one). */
export function titlePropertyOf(schema: PageSchema): string | undefined {
  return Object.entries(schema.properties).find(([, shape]) => shape.type === "title")?.[0];
}

/** A Notion value for `value`, or a sentence saying why it does not fit `shape`. */
function convert(name: string, shape: PropertyShape, value: PropertyInput): PropertyValue | string {
  const wrong = (expected: string) =>
    `"${name}" is a ${shape.type} property and takes ${expected}, not ${describe(value)}`;
  if (COMPUTED.has(shape.type))
    return `"${name}" is a ${shape.type} property, computed by Notion: it cannot be written`;
  if (typeof value === "string" && shape.type !== "rich_text") {
    if (textProblem(value) !== undefined)
      return `"${name}" is a ${shape.type} property and takes one line of text, without line breaks or control characters`;
    if (value.length > TEXT_MAX)
      return `"${name}" is a ${shape.type} property and takes at most ${TEXT_MAX} characters, not ${value.length}`;
  }
  switch (shape.type) {
    case "title":
    case "rich_text": {
      // null clears the text: an empty rich text array.
      if (typeof value !== "string" && value !== null) return wrong("text or null");
      const rich = toRichText(value ?? "");
      return shape.type === "title" ? { title: rich } : { rich_text: rich };
    }
    case "number":
      return typeof value === "number" || value === null ? { number: value } : wrong("a number or null");
    case "checkbox":
      // A checkbox has no empty state: null clears it to unchecked.
      if (value === null) return { checkbox: false };
      return typeof value === "boolean" ? { checkbox: value } : wrong("true or false (null unchecks)");
    case "select":
      if (value === null) return { select: null };
      // Notion adds a select option it does not have yet; a comma is what it refuses in an option name.
      return typeof value === "string" && value.length <= 100 && !value.includes(",")
        ? { select: { name: value } }
        : wrong("one option name (at most 100 characters, no comma) or null");
    case "status": {
      if (value === null) return { status: null };
      const options = shape.options ?? [];
      if (typeof value !== "string") return wrong(`one of its options (${options.join(", ")})`);
      return options.includes(value)
        ? { status: { name: value } }
        : `"${name}" is a status property: "${value}" is not one of its options (${options.join(", ")}), and the API cannot add one`;
    }
    case "multi_select":
      if (value === null) return { multi_select: [] };
      return Array.isArray(value) && value.every((option) => option.length <= 100 && !option.includes(","))
        ? { multi_select: value.map((option) => ({ name: option })) }
        : wrong("a list of option names (each at most 100 characters, no comma)");
    case "date":
      if (value === null) return { date: null };
      return typeof value === "string" && DATE.test(value)
        ? { date: { start: value } }
        : wrong("a date (YYYY-MM-DD or an ISO 8601 date-time) or null");
    case "url":
      if (value === null) return { url: null };
      return typeof value === "string" && value.length <= 2000 && URL.canParse(value)
        ? { url: value }
        : wrong("an absolute URL of at most 2,000 characters or null");
    case "email":
      if (value === null) return { email: null };
      return typeof value === "string" && value.length <= 200 && EMAIL.test(value)
        ? { email: value }
        : wrong("an email address of at most 200 characters or null");
    case "phone_number":
      if (value === null) return { phone_number: null };
      return typeof value === "string" && value.length <= 200
        ? { phone_number: value }
        : wrong("text of at most 200 characters or null");
    case "people":
      if (value === null) return { people: [] };
      return idList(value)
        ? { people: value.map((id) => ({ id: dashedId(id) })) }
        : wrong("a list of Notion user ids");
    case "relation":
      if (value === null) return { relation: [] };
      return idList(value)
        ? { relation: value.map((id) => ({ id: dashedId(id) })) }
        : wrong("a list of Notion page ids");
    default:
      return `"${name}" is a ${shape.type} property, which this tool does not write`;
  }
}

function idList(value: PropertyInput): value is string[] {
  return Array.isArray(value) && value.every((id) => NOTION_ID.safeParse(id).success);
}

function describe(value: PropertyInput): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "string" ? "text" : `a ${typeof value}`;
}

/** A hint for a near miss in case or spacing ("status" for "Status"), the commonest slip. */
function nearest(name: string, schema: PageSchema): string {
  const folded = name.toLowerCase().replace(/\s+/g, "");
  const match = Object.keys(schema.properties).find(
    (real) => real.toLowerCase().replace(/\s+/g, "") === folded,
  );
  return match === undefined ? "" : ` (did you mean "${match}"?)`;
}
