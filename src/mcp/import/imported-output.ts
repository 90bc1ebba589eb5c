/**
 * @module An upstream tool's `outputSchema` as the imported tool's output schema: its prose neutralised as
 * the input schema's is, and checked by the seam against the upstream's `structuredContent`, which becomes
 * the call's data. The content blocks toolreg carries beside that data for an MCP caller (images, audio,
 * under `toolreg/mcpContent`) are not the upstream's data, so the check leaves them out.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { compileJsonSchema } from "../../declaration/json-schema-validator.js";
import { MCP_CONTENT_KEY } from "../serve/call-tool-result.js";
import { neutralisedSchema } from "./imported-schema.js";

type OutputSchema = StandardSchemaV1<unknown, Record<string, unknown>> &
  StandardJSONSchemaV1<unknown, Record<string, unknown>>;

/** Throws, as `neutralisedSchema` does, when the schema cannot be declared: the tool is then withheld. */
export function importedOutputSchema(outputSchema: unknown, nonce: string): OutputSchema {
  const jsonSchema = neutralisedSchema(outputSchema, nonce);
  const check = compileJsonSchema(jsonSchema);
  return {
    "~standard": {
      version: 1,
      vendor: "toolreg-mcp-import",
      validate(value) {
        const data =
          typeof value === "object" && value !== null && MCP_CONTENT_KEY in value
            ? Object.fromEntries(Object.entries(value).filter(([key]) => key !== MCP_CONTENT_KEY))
            : value;
        const issues = check(data);
        if (issues.length > 0) {
          return {
            issues: issues.map(({ path, message }) => ({
              message,
              ...(path ? { path: path.split(".") } : {}),
            })),
          };
        }
        return { value: value as Record<string, unknown> };
      },
      jsonSchema: { input: () => jsonSchema, output: () => jsonSchema },
    },
  };
}
