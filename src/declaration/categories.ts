/** @module The fixed list of tool categories; a category is the unit a tenant switches on or off. */

export const CATEGORIES = [
  "web",
  "data",
  "files",
  "code",
  "knowledge",
  "general",
  "communication",
  "publishing",
  "project",
  "crm",
  "productivity",
  "media",
  "finance",
  "cloud",
  "meta",
] as const;

export type Category = (typeof CATEGORIES)[number];

export function isCategory(value: unknown): value is Category {
  return typeof value === "string" && (CATEGORIES as readonly string[]).includes(value);
}
