/** @module Reading values a provider or a model sent, which may be anything at all. */

/** A JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What a value is, in words a model can act on: "missing", "empty", "an array", "a number" … */
export function kindOf(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === "") return "empty";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}
