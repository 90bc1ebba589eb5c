/**
 * @module Generated artifacts as resources, at the `artifact://{id}/{name}` a tool's result gives
 * (`file_generate`'s uri): the bytes, as text or a base64 blob by media type, for callers of the tenant
 * that made them, as the artifact store keeps them. Not listed: the store finds an artifact by its address
 * and lists none.
 */
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import { isArtifactAddress, mediaTypeOfName } from "../../../ports/artifact-address.js";
import type { ArtifactStore } from "../../../ports/artifact-store.js";
import { KEPT_OUTPUT_FILE } from "../../../seam/output-store.js";
import { type McpResourceSource, resourceContents } from "./resource-source.js";

export const ARTIFACT_TEMPLATE = "artifact://{id}/{name}";
const template = new UriTemplate(ARTIFACT_TEMPLATE);

export function artifactResources(artifacts: ArtifactStore): McpResourceSource {
  return {
    templates: [
      {
        uriTemplate: ARTIFACT_TEMPLATE,
        name: "artifact",
        title: "A generated file",
        description:
          "A file a tool generated, at the artifact:// URI its result gives; readable within the tenant that made it.",
      },
    ],
    async read(uri, context) {
      const { id, name } = template.match(uri) ?? {};
      if (typeof id !== "string" || typeof name !== "string" || !isArtifactAddress(id, name))
        return undefined;
      // An output kept in the same store is read as toolreg://outputs/{ref}, through its principal's check.
      if (name === KEPT_OUTPUT_FILE || context.mode === "disabled") return undefined;
      const bytes = await artifacts.get({ tenantId: context.tenantId, id, name });
      return bytes && [resourceContents(uri, mediaTypeOfName(name), bytes)];
    },
  };
}
