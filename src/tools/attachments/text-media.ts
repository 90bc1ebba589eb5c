/** @module Which media types read_attachment reads as text; the rest (PDF, office files, images) are documents or binary. */

const TEXT_APPLICATIONS = new Set([
  "application/json",
  "application/ld+json",
  "application/x-ndjson",
  "application/xml",
  "application/yaml",
  "application/x-yaml",
  "application/toml",
  "application/csv",
  "application/javascript",
  "application/sql",
]);

/** Whether `mediaType` (parameters such as charset ignored) is text a model can read as it is. */
export function isTextLike(mediaType: string): boolean {
  const type = (mediaType.split(";")[0] ?? "").trim().toLowerCase();
  return (
    type.startsWith("text/") || TEXT_APPLICATIONS.has(type) || type.endsWith("+json") || type.endsWith("+xml")
  );
}
