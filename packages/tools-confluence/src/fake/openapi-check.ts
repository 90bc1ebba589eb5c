/**
 * @module Checks the fake's v2 answers against Atlassian's Confluence v2 OpenAPI description
 * (openapi-v2.v3.json, OpenAPI 3.0.3). The description is published under Atlassian's developer terms with no
 * licence to redistribute it, so it is not in this repository: a developer points CONFLUENCE_OPENAPI_V2 at a
 * copy, and without one the check does not run. The operation is found by method and path template, the
 * response by status, the body checked with ajv against the response schema and the components it refers to.
 */
import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";

type Schema = Record<string, unknown>;

interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>
  >;
  components: { schemas: Record<string, Schema> };
}

export interface OpenApiCheck {
  /** Mismatches for this answer, empty when it matches; throws when the operation or status is undocumented. */
  problems(method: string, path: string, status: number, body: unknown): string[];
}

export function loadOpenApiCheck(file: string): OpenApiCheck {
  const document = JSON.parse(readFileSync(file, "utf8")) as OpenApiDocument;
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false, logger: false });
  ajv.addSchema({ $id: "confluence-v2", components: document.components });
  const compiled = new Map<string, ValidateFunction>();
  return {
    problems(method, path, status, body) {
      const relative = path.replace(/^\/wiki\/api\/v2/, "");
      const template = Object.keys(document.paths).find((candidate) =>
        new RegExp(`^${candidate.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(relative),
      );
      const operation = template === undefined ? undefined : document.paths[template]?.[method.toLowerCase()];
      const schema = operation?.responses?.[String(status)]?.content?.["application/json"]?.schema;
      if (template === undefined || schema === undefined) {
        throw new Error(`Confluence's v2 description documents no JSON ${status} for ${method} ${relative}`);
      }
      const key = `${method} ${template} ${status}`;
      let validate = compiled.get(key);
      if (validate === undefined) {
        // The description's refs are local to it: point them at the registered document.
        const absolute = JSON.parse(
          JSON.stringify(schema).replaceAll('"#/components/', '"confluence-v2#/components/'),
        ) as Schema;
        validate = ajv.compile(absolute);
        compiled.set(key, validate);
      }
      if (validate(body)) return [];
      return (validate.errors ?? []).map(
        (error) => `${error.instancePath || "(body)"} ${error.message ?? "is wrong"}`,
      );
    },
  };
}
