/**
 * @module The id a write hands Linear, derived from the call's idempotency key. IssueCreateInput.id and
 * CommentCreateInput.id take "the identifier in UUID v4 format. If none is provided, the backend will
 * generate one": given one, a retry under the same key names the same issue or comment, and Linear
 * cannot create it twice. A name-based UUID (v5) would carry version 5, which an API asking for v4 may
 * refuse, so the hash is laid out as v4: SHA-256 of the purpose and key, version nibble 4, RFC 9562 variant.
 */
import { createHash } from "node:crypto";
import { ToolFailure } from "toolreg/toolkit";

export type DerivedIdPurpose = "issue" | "comment";

export function derivedId(purpose: DerivedIdPurpose, idempotencyKey: string | undefined): string {
  // The seam hands every external-write call a key; a call without one is a broken invariant, not a model's fault.
  if (idempotencyKey === undefined) {
    throw new ToolFailure(
      "internal",
      `a Linear ${purpose} write ran without the idempotency key its id is derived from`,
    );
  }
  const bytes = createHash("sha256")
    .update(`toolreg/linear/${purpose}\n${idempotencyKey}`)
    .digest()
    .subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
