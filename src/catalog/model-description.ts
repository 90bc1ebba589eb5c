/**
 * @module The description a model reads. A tool imported from an MCP server describes itself in the
 * upstream's own words, which may carry instructions; those are fenced as the untrusted text they are.
 * The nonce comes from the text, so a catalogue renders byte-identically turn after turn (provider
 * prompt caches rely on it) and the text cannot contain its own fence's nonce.
 */
import { sha256 } from "../declaration/tool-hash.js";
import type { AnyTool } from "../registry/registry.js";
import { encloseUntrusted } from "../seam/untrusted-fence.js";

export function descriptionForModel(tool: Pick<AnyTool, "description" | "provenance">): string {
  if (!tool.provenance.startsWith("mcp:")) return tool.description;
  const nonce = sha256(`${tool.provenance}\n${tool.description}`).slice(0, 16);
  return encloseUntrusted(tool.description, tool.provenance, nonce);
}
