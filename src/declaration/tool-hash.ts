/** @module A stable hash of a tool definition: canonical JSON, then sha256. */
import { createHash } from "node:crypto";

/** JSON with object keys sorted at every depth, so equal values hash equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== "object" || Array.isArray(inner)) return inner;
    // No prototype, so a "__proto__" key is kept as data instead of setting the prototype.
    const sorted: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
    return sorted;
  });
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export function hashDefinition(definition: object): string {
  return sha256(canonicalJson(definition));
}
