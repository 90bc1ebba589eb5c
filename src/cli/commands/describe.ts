/** @module `toolreg describe NAME`: one tool's declaration, as its docs page shows it, and its JSON Schema. */
import { toolDocsPage } from "../../catalog/tool-docs-page.js";
import type { RegistryView } from "../../registry/registry.js";
import { nearestNames } from "../../seam/nearest-names.js";
import type { CliIo } from "../cli-io.js";
import { formatJson } from "../format.js";

export function describeTool(registry: RegistryView, name: string, io: CliIo): number {
  const tool = registry.get(name);
  if (!tool) {
    const nearest = nearestNames(
      name,
      registry.list().map((candidate) => candidate.name),
    );
    io.stderr(
      `error: no tool named "${name}"${nearest.length > 0 ? `; did you mean ${nearest.join(", ")}?` : ""}\n`,
    );
    return 1;
  }
  io.stdout(`${toolDocsPage(tool)}\n\n## JSON Schema\n\n${formatJson(tool.inputJsonSchema)}`);
  return 0;
}
