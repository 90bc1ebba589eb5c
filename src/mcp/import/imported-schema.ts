/**
 * @module An upstream input schema as toolreg declares it. Its prose (descriptions and titles, at any
 * depth) reaches a model beside the fenced tool description, so it loses what text can do to a prompt —
 * chat-template markers, role lines, headings, fence tags — and keeps what it says.
 */
import type { JsonSchemaObject } from "../../declaration/json-schema-validator.js";
import { neutralise } from "../../seam/untrusted-fence.js";
import { mapSchemaProse } from "./schema-prose.js";

export function neutralisedSchema(schema: unknown, nonce: string): JsonSchemaObject {
  return mapSchemaProse(schema, (text) => neutralise(text, nonce)) as JsonSchemaObject;
}
