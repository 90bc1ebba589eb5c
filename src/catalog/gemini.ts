/** @module Gemini `functionDeclarations`, as JSON Schema or as the older OpenAPI-subset `parameters`. */

import type { JsonSchemaObject } from "../declaration/json-schema-validator.js";
import type { AnyTool } from "../registry/registry.js";
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

export interface GeminiOptions {
  /** `json-schema` (default) sends `parametersJsonSchema`; `openapi` sends the down-converted `parameters`. */
  form?: "json-schema" | "openapi";
}

/** Renders tools as one Gemini `Tool` holding every function declaration, in the order given. */
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
      const parameters = toGeminiSchema(parametersOf(tool), tool.name);
      // Gemini rejects an OBJECT with no properties; a tool without inputs omits `parameters` instead.
      const properties = parameters.properties;
      if (typeof properties === "object" && properties !== null && Object.keys(properties).length > 0) {
        declaration.parameters = parameters;
      }
      return declaration;
    }),
  };
}
