/**
 * @module The prose in an upstream tool's definition for pinning: descriptions and titles, at any depth of
 * a schema, whose re-wrapping is not drift. Narrower than what imported-schema.ts neutralises for a model
 * (examples, defaults, unknown keywords too), and kept so: widening it would change the hash of every pin
 * already accepted.
 */

const PROSE_KEYWORDS = new Set(["description", "title"]);

/**
 * A copy of `value` with `transform` applied to every description and title. A property that happens to
 * be named `description` is a schema, not text, so only string values are ever transformed; keys are
 * copied as data (`Object.fromEntries` defines a `__proto__` key rather than setting a prototype).
 */
export function mapSchemaProse(value: unknown, transform: (text: string) => string): unknown {
  return walk(value, undefined, transform);
}

function walk(value: unknown, key: string | undefined, transform: (text: string) => string): unknown {
  if (typeof value === "string")
    return key !== undefined && PROSE_KEYWORDS.has(key) ? transform(value) : value;
  if (Array.isArray(value)) return value.map((item) => walk(item, undefined, transform));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([inner, item]) => [inner, walk(item, inner, transform)]),
  );
}
