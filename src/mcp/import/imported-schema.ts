/**
 * @module An upstream input schema as toolreg declares it. Its prose (descriptions and titles, at any
 * depth) reaches a model beside the fenced tool description, so it loses what text can do to a prompt —
 * chat-template markers, role lines, headings, fence tags — and keeps what it says.
 */
import type { JsonSchemaObject } from "../../declaration/json-schema-validator.js";
import { neutralise } from "../../seam/untrusted-fence.js";

export function neutralisedSchema(schema: unknown, nonce: string): JsonSchemaObject {
  return neutraliseProse(schema, undefined, nonce) as JsonSchemaObject;
}

function neutraliseProse(value: unknown, key: string | undefined, nonce: string): unknown {
  if (typeof value === "string")
    return key === "description" || key === "title" ? neutralise(value, nonce) : value;
  if (Array.isArray(value)) return value.map((item) => neutraliseProse(item, undefined, nonce));
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = {};
  for (const [inner, item] of Object.entries(value)) {
    // A property named "description" is a schema, not prose: only a keyword's value is text.
    copy[inner] = neutraliseProse(item, key === "properties" ? undefined : inner, nonce);
  }
  return copy;
}
