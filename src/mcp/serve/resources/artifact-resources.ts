/**
 * @module Generated artifacts as resources, at the `artifact://{id}/{name}` a tool's result gives
 * (`file_generate`'s uri, an imported tool's kept image or file): the bytes, as text or a base64 blob by
 * media type, for callers of the tenant that made them, as the artifact store keeps them. Bytes kept as
 * untrusted (an imported MCP server's) never reach a model as raw text: a text-like type is served fenced,
 * as kept outputs are, anything else as a blob; either way with its provenance in `_meta`. Not listed: the
 * store finds an artifact by its address and lists none.
 */
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import { isArtifactAddress, mediaTypeOfName } from "../../../ports/artifact-address.js";
import type { ArtifactStore, StoredArtifact } from "../../../ports/artifact-store.js";
import { KEPT_OUTPUT_FILE } from "../../../seam/output-store.js";
import { encloseUntrusted } from "../../../seam/untrusted-fence.js";
import { PROVENANCE_META } from "./kept-output-resources.js";
import {
  isTextType,
  type McpResourceContents,
  type McpResourceSource,
  resourceContents,
} from "./resource-source.js";

export const ARTIFACT_TEMPLATE = "artifact://{id}/{name}";
/** The media type an untrusted artifact served fenced was kept as (its contents are then `text/plain`). */
export const MEDIA_TYPE_META = "toolreg/mediaType";
const template = new UriTemplate(ARTIFACT_TEMPLATE);

export function artifactResources(artifacts: ArtifactStore): McpResourceSource {
  return {
    templates: [
      {
        uriTemplate: ARTIFACT_TEMPLATE,
        name: "artifact",
        title: "A generated file",
        description:
          "A file a tool generated or an imported tool returned, at the artifact:// URI its result gives; readable within the tenant that made it. Text from an untrusted source comes fenced.",
      },
    ],
    async read(uri, context) {
      const { id, name } = template.match(uri) ?? {};
      if (typeof id !== "string" || typeof name !== "string" || !isArtifactAddress(id, name))
        return undefined;
      // An output kept in the same store is read as toolreg://outputs/{ref}, through its principal's check.
      // Compared without case: on a case-insensitive disk TOOL-OUTPUT.JSON is the same file.
      if (name.toLowerCase() === KEPT_OUTPUT_FILE || context.mode === "disabled") return undefined;
      const stored = await artifacts.get({ tenantId: context.tenantId, id, name });
      return stored && [artifactContents(uri, mediaTypeOfName(name), stored)];
    },
  };
}

function artifactContents(
  uri: string,
  mediaType: string,
  { bytes, provenance }: StoredArtifact,
): McpResourceContents {
  if (!provenance) return resourceContents(uri, mediaType, bytes);
  const _meta = { [PROVENANCE_META]: provenance };
  if (provenance.trusted || !isTextType(mediaType))
    return { ...resourceContents(uri, mediaType, bytes), _meta };
  // Text a model may read, from a source it must not obey: fenced, even where the bytes are not UTF-8
  // (a blob of a text type would reach the model raw the moment a client decodes it).
  const text = new TextDecoder("utf-8").decode(bytes);
  return {
    uri,
    mimeType: "text/plain",
    text: encloseUntrusted(text, provenance),
    _meta: { ..._meta, [MEDIA_TYPE_META]: mediaType },
  };
}
