/**
 * @module The text an OpenAI model reads for its function tools. The JSON a request carries is not what
 * the model sees: each function becomes a TypeScript type in a `namespace functions` block, descriptions
 * become `//` comments, and that text is what the prompt is billed for. The shape follows the renderer
 * OpenAI publishes with its harmony format; where that renderer gives up on a union (`anyOf`) or an
 * untyped enum and writes `any`, this names the members, so a budget never counts less than a model may
 * be shown.
 */

/** Written once around any non-empty set of functions: the section heading and the namespace. */
export const OPENAI_FUNCTIONS_FRAME =
  "# Tools\n\n## functions\n\nnamespace functions {\n\n} // namespace functions";

/** A function tool as OpenAI's APIs take it (Chat Completions' `function`, or a Responses tool). */
export interface OpenAIFunctionDefinition {
  name: string;
  description?: string;
  parameters?: unknown;
}

type Schema = Record<string, unknown>;

/** One function as the model reads it, with the blank line that follows it inside the namespace. */
export function openAIFunctionText({ name, description, parameters }: OpenAIFunctionDefinition): string {
  const comments = lines(description ?? "")
    .map((line) => `// ${line}\n`)
    .join("");
  const argument = parameters === undefined ? "" : `_: ${typeText(parameters, "")}`;
  return `${comments}type ${name} = (${argument}) => any;\n\n`;
}

/** Lines as Rust's `str::lines` gives them: none for an empty text, no empty one after a final newline. */
function lines(text: string): string[] {
  if (text === "") return [];
  const split = text.split(/\r?\n/);
  return split.at(-1) === "" ? split.slice(0, -1) : split;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function unionMembers(schema: Schema): unknown[] | undefined {
  const members = schema.oneOf ?? schema.anyOf;
  return Array.isArray(members) ? members : undefined;
}

function literal(value: unknown): string {
  return JSON.stringify(value) ?? "any";
}

/** A default as a comment: a plain string quoted, an enum's string bare, anything else as JSON. */
function defaultText(schema: Schema): string | undefined {
  if (!("default" in schema)) return undefined;
  const value = schema.default;
  if (typeof value === "string")
    return Array.isArray(schema.enum) ? `default: ${value}` : `default: "${value}"`;
  return `default: ${literal(value)}`;
}

function typeText(schema: unknown, indent: string): string {
  if (!isSchema(schema)) return "any";
  const members = unionMembers(schema);
  if (members) {
    return members
      .map((member) => {
        const comment = memberComment(member, true);
        return `\n${indent} | ${nullableText(member, `${indent}   `)}${comment}`;
      })
      .join("");
  }
  const { type } = schema;
  if (Array.isArray(type)) {
    return type.map((name) => (name === "integer" ? "number" : String(name))).join(" | ");
  }
  switch (type) {
    case "object":
      return objectText(schema, indent);
    case "string":
      return Array.isArray(schema.enum) && schema.enum.some((value) => typeof value === "string")
        ? schema.enum
            .filter((value) => typeof value === "string")
            .map((value) => `"${value}"`)
            .join(" | ")
        : "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "array":
      return "items" in schema ? `${typeText(schema.items, indent)}[]` : "Array<any>";
    case undefined:
      if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum.map(literal).join(" | ");
      if ("const" in schema) return literal(schema.const);
      return "any";
    default:
      return "any";
  }
}

/** A schema's type, with `| null` when it says `nullable` (OpenAPI's way) and does not already. */
function nullableText(schema: unknown, indent: string): string {
  const text = typeText(schema, indent);
  return isSchema(schema) && schema.nullable === true && !text.includes("null") ? `${text} | null` : text;
}

/** A union member's description and default, as the comment after it on its line; empty for neither. */
function memberComment(member: unknown, withDescription: boolean): string {
  if (!isSchema(member)) return "";
  const notes: string[] = [];
  if (withDescription && typeof member.description === "string") notes.push(member.description);
  const fallback = defaultText(member);
  if (fallback) notes.push(fallback);
  return notes.length > 0 ? ` // ${notes.join(" ")}` : "";
}

function objectText(schema: Schema, indent: string): string {
  let text = typeof schema.description === "string" ? `${indent}// ${schema.description}\n` : "";
  text += "{\n";
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const properties = isSchema(schema.properties) ? schema.properties : {};
  for (const [key, property] of Object.entries(properties)) {
    const optional = required.has(key) ? "" : "?";
    if (!isSchema(property)) {
      text += `${indent}${key}${optional}: any,\n`;
      continue;
    }
    if (typeof property.title === "string") text += `${indent}// ${property.title}\n${indent}//\n`;
    const members = unionMembers(property);
    if (!members && typeof property.description === "string") text += `${indent}// ${property.description}\n`;
    if (Array.isArray(property.examples) && property.examples.length > 0) {
      text += `${indent}// Examples:\n`;
      for (const example of property.examples) {
        if (typeof example === "string") text += `${indent}// - "${example}"\n`;
      }
    }
    if (members) {
      text += unionPropertyText(key, optional, property, members, indent);
      continue;
    }
    const fallback = defaultText(property);
    text += `${indent}${key}${optional}: ${nullableText(property, `${indent}    `)},`;
    text += fallback ? ` // ${fallback}\n` : "\n";
  }
  return `${text}${indent}}`;
}

/**
 * A union property: its description above it (unless its first member says the same), each member on a
 * line of its own with what that member adds.
 */
function unionPropertyText(
  key: string,
  optional: string,
  property: Schema,
  members: unknown[],
  indent: string,
): string {
  const described = typeof property.description === "string" ? property.description : undefined;
  const first = members[0];
  const above = described !== undefined && !(isSchema(first) && first.description === described);
  let text = above ? `${indent}// ${described}\n` : "";
  const fallback = defaultText(property);
  if (fallback) text += `${indent}// ${fallback}\n`;
  text += `${indent}${key}${optional}:\n`;
  members.forEach((member, index) => {
    const describe = !(index === 0 && above) && isSchema(member) && member.description !== described;
    text += `${indent} | ${nullableText(member, `${indent}   `)}${memberComment(member, describe)}\n`;
  });
  return `${text}${indent},\n`;
}
