/** @module Gemini `functionDeclarations`, as JSON Schema or as the older OpenAPI-subset `parameters`. */

import type { JsonSchemaObject } from "../declaration/json-schema-validator.js";
import type { AnyTool } from "../registry/registry.js";
import { CatalogSchemaError } from "./catalog-schema-error.js";
import { type GeminiSchema, toGeminiSchema } from "./gemini-schema.js";
import { descriptionForModel } from "./model-description.js";
import { parametersOf } from "./parameters.js";

export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parametersJsonSchema?: JsonSchemaObject;
  parameters?: GeminiSchema;
}

export interface GeminiTools {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** Appended to the description of a tool whose input schema the OpenAPI form cannot read. */
export const PARAMETERS_NOT_SHOWN =
  "Its parameters cannot be shown in this format; a call's refusal names what it needs.";

export interface GeminiOptions {
  /** `json-schema` (default) sends `parametersJsonSchema`; `openapi` sends the down-converted `parameters`. */
  form?: "json-schema" | "openapi";
}

/**
 * Renders tools as one Gemini `Tool` holding every function declaration, in the order given. In the
 * `openapi` form, a tool whose schema toGeminiSchema refuses is declared without `parameters` and says so,
 * rather than failing the whole catalogue.
 */
export function renderGeminiTools(tools: readonly AnyTool[], options: GeminiOptions = {}): GeminiTools {
  const openapi = options.form === "openapi";
  return {
    functionDeclarations: tools.map((tool) => {
      const declaration: GeminiFunctionDeclaration = {
        name: tool.name,
        description: descriptionForModel(tool),
      };
      if (!openapi) {
        declaration.parametersJsonSchema = parametersOf(tool);
        return declaration;
      }
      const parameters = openapiParameters(tool);
      if (!parameters) {
        declaration.description = `${declaration.description}\n\n${PARAMETERS_NOT_SHOWN}`;
        return declaration;
      }
      // Gemini rejects an OBJECT with no properties; a tool without inputs omits `parameters` instead.
      const properties = parameters.properties;
      if (typeof properties === "object" && properties !== null && Object.keys(properties).length > 0) {
        declaration.parameters = parameters;
      }
      return declaration;
    }),
  };
}

/** The tool's down-converted parameters, or undefined when its schema cannot be read in this form. */
function openapiParameters(tool: AnyTool): GeminiSchema | undefined {
  try {
    return toGeminiSchema(parametersOf(tool), tool.name);
  } catch (error) {
    if (error instanceof CatalogSchemaError) return undefined;
    throw error;
  }
}
