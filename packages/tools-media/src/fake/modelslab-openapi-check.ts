/**
 * @module Checks the ModelsLab fake against ModelsLab's own OpenAPI descriptions (an excerpt of
 * ModelsLab/docs-v2, MIT, kept beside this file as modelslab-openapi.json): the text2img and fetch requests the
 * provider sends, and the success, processing and error answers the fake gives. A request may name only the
 * fields the description does, so a misspelt one fails here rather than being ignored by ModelsLab.
 */
import { readFileSync } from "node:fs";
import { Ajv } from "ajv";

const described = JSON.parse(readFileSync(new URL("./modelslab-openapi.json", import.meta.url), "utf8")) as {
  components: { schemas: Record<string, { properties?: object; additionalProperties?: boolean }> };
};
const REQUESTS = ["FluxTextToImageRequest", "FetchQueuedImagesRequest"];
const schemas = Object.fromEntries(
  Object.entries(described.components.schemas).map(([name, schema]) => [
    name,
    REQUESTS.includes(name) ? { ...schema, additionalProperties: false } : schema,
  ]),
);

// OpenAPI keywords (nullable) are not JSON Schema's: not strict, formats unchecked.
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema({ $id: "modelslab", components: { schemas } });

export type ModelsLabShape =
  | "FluxTextToImageRequest"
  | "FetchQueuedImagesRequest"
  | "ImageGenerationSuccessResponse"
  | "ImageGenerationProcessingResponse"
  | "ImageGenerationErrorResponse";

/** The problems `value` has as `shape`, empty when it conforms. */
export function modelsLabProblems(shape: ModelsLabShape, value: unknown): string[] {
  const validate = ajv.getSchema(`modelslab#/components/schemas/${shape}`);
  if (!validate) return [`no schema ${shape}`];
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (error) => `${shape}${error.instancePath} ${error.message ?? "is invalid"}`,
  );
}
