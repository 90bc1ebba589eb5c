/**
 * @module Each tool's docs page as a resource, `toolreg://tools/{name}/docs` (Markdown, generated from its
 * declaration), for the tools the caller may see: listed, read, completed by name, and announced as changed
 * when the registry installs, removes or updates a tool.
 */
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import type { Resource } from "@modelcontextprotocol/sdk/types.js";
import { descriptionForModel } from "../../../catalog/model-description.js";
import { toolDocsPage } from "../../../catalog/tool-docs-page.js";
import type { AnyTool, ToolRegistry } from "../../../registry/registry.js";
import type { Seam } from "../../../seam/seam.js";
import type { McpResourceSource } from "./resource-source.js";

export const TOOL_DOCS_TEMPLATE = "toolreg://tools/{name}/docs";
const template = new UriTemplate(TOOL_DOCS_TEMPLATE);

/** Where the docs page of the tool `name` is read. */
export const toolDocsUri = (name: string): string => template.expand({ name });

/** `registry`, when given, is watched: a changed tool's page is updated and the list changed. */
export function toolDocsResources(seam: Seam, registry?: Pick<ToolRegistry, "onUpdate">): McpResourceSource {
  const visibleTool = (name: unknown, context: Parameters<Seam["mayUse"]>[0]): AnyTool | undefined => {
    const tool = typeof name === "string" ? seam.registry.get(name) : undefined;
    return tool && seam.mayUse(context, tool) ? tool : undefined;
  };
  return {
    list: (context) => seam.visibleTools(context).map(listed),
    templates: [
      {
        uriTemplate: TOOL_DOCS_TEMPLATE,
        name: "tool-docs",
        title: "A tool's docs page",
        description:
          "What a tool does, its effect, approval, limits and input, generated from its declaration.",
        mimeType: "text/markdown",
      },
    ],
    read(uri, context) {
      const tool = visibleTool(template.match(uri)?.name, context);
      return tool && [{ uri, mimeType: "text/markdown", text: toolDocsPage(tool) }];
    },
    complete(_uriTemplate, variable, value, context) {
      if (variable !== "name") return [];
      return seam
        .visibleTools(context)
        .map((tool) => tool.name)
        .filter((name) => name.startsWith(value));
    },
    ...(registry && {
      watch: (changes) =>
        registry.onUpdate((event) => {
          changes.listChanged();
          changes.updated(toolDocsUri(event.tool));
        }),
    }),
  };
}

function listed(tool: AnyTool): Resource {
  return {
    uri: toolDocsUri(tool.name),
    name: `${tool.name} docs`,
    // An imported tool's description is its upstream's words: fenced, as tools/list gives it.
    description: descriptionForModel(tool),
    mimeType: "text/markdown",
  };
}
