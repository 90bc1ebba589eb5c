/**
 * @module The host's own resources: fixed ones at a URI, and templated ones read from the variables of a URI
 * template (RFC 6570), served beside toolreg's own. A body is a string (text) or bytes (a base64 blob).
 */
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import type { Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import type { ExecutionContext } from "../../../seam/context.js";
import { type McpResourceSource, type ResourceChanges, resourceContents } from "./resource-source.js";

type Body = string | Uint8Array;

/** A resource at one URI, listed for every caller. */
export interface FixedResource extends Resource {
  mimeType: string;
  read(context: ExecutionContext): Body | Promise<Body>;
}

/** Resources at the URIs a template matches; `read` answers undefined where there is none. */
export interface TemplatedResource extends ResourceTemplate {
  mimeType: string;
  read(
    variables: Record<string, string | string[]>,
    context: ExecutionContext,
  ): Body | undefined | Promise<Body | undefined>;
  /** Values of `variable` beginning with `value`, for `completion/complete`. */
  complete?(variable: string, value: string, context: ExecutionContext): readonly string[];
}

export interface McpResourcesDefinition {
  resources?: readonly FixedResource[];
  templates?: readonly TemplatedResource[];
  /** Tells of changes (`changes.updated(uri)` when a resource's body changed); returns what stops it. */
  watch?(changes: ResourceChanges): () => void;
}

/** A source for `createMcpServer`'s `resources` from the host's definitions. */
export function defineMcpResources(definition: McpResourcesDefinition): McpResourceSource {
  const fixed = definition.resources ?? [];
  const templated = (definition.templates ?? []).map((resource) => ({
    resource,
    template: new UriTemplate(resource.uriTemplate),
  }));
  const { watch } = definition;
  return {
    list: () => fixed.map(({ read: _read, ...listed }) => listed),
    templates: templated.map(({ resource: { read: _read, complete: _complete, ...listed } }) => listed),
    async read(uri, context) {
      const resource = fixed.find((candidate) => candidate.uri === uri);
      if (resource) return [resourceContents(uri, resource.mimeType, await resource.read(context))];
      for (const { resource, template } of templated) {
        const variables = template.match(uri);
        if (!variables) continue;
        const body = await resource.read(variables, context);
        if (body !== undefined) return [resourceContents(uri, resource.mimeType, body)];
      }
      return undefined;
    },
    complete(uriTemplate, variable, value, context) {
      const found = templated.find(({ resource }) => resource.uriTemplate === uriTemplate);
      return found?.resource.complete?.(variable, value, context) ?? [];
    },
    // Bound: a host may write it as a method of its definition.
    ...(watch && { watch: watch.bind(definition) }),
  };
}
