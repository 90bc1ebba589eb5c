/**
 * @module The id a write hands Linear, derived from the call's tenant, tool and idempotency key.
 * IssueCreateInput.id and CommentCreateInput.id take "the identifier in UUID v4 format. If none is provided,
 * the backend will generate one": given one, a retry under the same key names the same issue or comment, and
 * Linear cannot create it twice. An idempotency key is unique within one tenant only, and two tenants may
 * share a workspace, so the tenant is hashed in too. A name-based UUID (v5) would carry version 5, which an
 * API asking for v4 may refuse, so the hash is laid out as v4: SHA-256, version nibble 4, RFC 9562 variant.
 */
import { createHash } from "node:crypto";
import { type ToolContext, ToolFailure } from "toolreg/toolkit";

export function derivedId(tool: string, context: Pick<ToolContext, "tenantId" | "idempotencyKey">): string {
  // The seam hands every external-write call a key; a call without one is a broken invariant, not a model's fault.
  if (context.idempotencyKey === undefined) {
    throw new ToolFailure(
      "internal",
      `${tool} ran without the idempotency key its Linear id is derived from`,
    );
  }
  // Each part is length-prefixed, so no tenant, tool or key can be shifted into another's place.
  const hash = createHash("sha256").update("toolreg/linear\n");
  for (const part of [context.tenantId, tool, context.idempotencyKey])
    hash.update(`${part.length}:${part}\n`);
  const bytes = hash.digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
