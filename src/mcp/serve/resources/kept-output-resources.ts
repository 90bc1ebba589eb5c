/**
 * @module Kept outputs as resources, `toolreg://outputs/{ref}`: an output cut at its tool's cap, whole, for
 * the caller `read_tool_output` would page it for (its tenant and principal, while that tool is theirs to
 * use). Text from an untrusted source comes fenced, as every page of it does, and flagged in `_meta`.
 * Not listed: the store finds an output by its ref and lists none.
 */
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import type { ExecutionContext } from "../../../seam/context.js";
import { OUTPUT_REF, type OutputStore } from "../../../seam/output-store.js";
import type { Seam } from "../../../seam/seam.js";
import { encloseUntrusted } from "../../../seam/untrusted-fence.js";
import type { McpResourceSource } from "./resource-source.js";

export const KEPT_OUTPUT_TEMPLATE = "toolreg://outputs/{ref}";
/** Where a kept output's source is named in its contents' `_meta`, with whether it is trusted. */
export const PROVENANCE_META = "toolreg/provenance";
const template = new UriTemplate(KEPT_OUTPUT_TEMPLATE);

/** Where the output kept under `ref` is read. */
export const keptOutputUri = (ref: string): string => template.expand({ ref });

export function keptOutputResources(outputs: OutputStore, seam: Seam): McpResourceSource {
  // The same gate as paging it: no read_tool_output for this caller, no kept outputs either.
  const mayRead = (context: ExecutionContext) => {
    const pager = seam.registry.get("read_tool_output");
    return pager !== undefined && seam.mayUse(context, pager);
  };
  return {
    templates: [
      {
        uriTemplate: KEPT_OUTPUT_TEMPLATE,
        name: "kept-output",
        title: "A tool's output, kept whole",
        description:
          "An output cut at its tool's size cap, whole; the ref (out_…) is in the cut output's note. Yours only; text from an untrusted source comes fenced.",
        mimeType: "text/plain",
      },
    ],
    async read(uri, context) {
      const ref = template.match(uri)?.ref;
      if (typeof ref !== "string" || !OUTPUT_REF.test(ref) || !mayRead(context)) return undefined;
      const output = await outputs.get({ tenantId: context.tenantId, principalId: context.principalId, ref });
      if (!output) return undefined;
      const { provenance } = output;
      const untrusted = provenance !== undefined && !provenance.trusted;
      return [
        {
          uri,
          mimeType: "text/plain",
          text: untrusted ? encloseUntrusted(output.text, provenance) : output.text,
          _meta: {
            "toolreg/tool": output.toolName,
            ...(provenance ? { [PROVENANCE_META]: provenance } : {}),
          },
        },
      ];
    },
  };
}
