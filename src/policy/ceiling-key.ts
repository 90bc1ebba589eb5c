/** @module What one ceiling counter counts, as a map key. */

/** All calls of a tenant, of a principal (within its tenant), or of a principal on one tool. */
export type CeilingLevel = "tenant" | "principal" | "tool";

export const CEILING_LEVELS: readonly CeilingLevel[] = ["tenant", "principal", "tool"];

/** The counter a call falls into at `level`; NUL cannot occur in an identifier, so keys never collide. */
export function ceilingKey(
  level: CeilingLevel,
  request: { tenantId: string; principalId: string; toolName: string },
): string {
  switch (level) {
    case "tenant":
      return request.tenantId;
    case "principal":
      return `${request.tenantId}\u0000${request.principalId}`;
    case "tool":
      return `${request.tenantId}\u0000${request.principalId}\u0000${request.toolName}`;
  }
}
