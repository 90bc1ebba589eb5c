/** @module The shape of an API key, `trk_<id>_<secret>`: the id finds the stored row, the secret proves possession. */
import { randomBytes } from "node:crypto";
import { randomSecret } from "./secret.js";

/** Hex keeps the id free of `_`, so the first `_` after it always ends it; 80 random bits cannot collide in practice. */
const KEY_ID = "[0-9a-f]{20}";
const KEY_SHAPE = new RegExp(`^trk_(${KEY_ID})_([A-Za-z0-9_-]{43})$`);
const KEY_ID_SHAPE = new RegExp(`^${KEY_ID}$`);

export interface ApiKeyParts {
  id: string;
  secret: string;
}

/** A new key's id and secret. */
export function newApiKeyParts(): ApiKeyParts {
  return { id: randomBytes(10).toString("hex"), secret: randomSecret() };
}

export function formatApiKey({ id, secret }: ApiKeyParts): string {
  return `trk_${id}_${secret}`;
}

/** The id and secret of a well-formed key; anything else, including a non-string, is undefined. */
export function parseApiKey(key: unknown): ApiKeyParts | undefined {
  if (typeof key !== "string") return undefined;
  const match = KEY_SHAPE.exec(key);
  return match ? { id: match[1]!, secret: match[2]! } : undefined;
}

/** Whether a presented key id could be one `newApiKeyParts` made; anything else names no key. */
export function isKeyId(value: unknown): value is string {
  return typeof value === "string" && KEY_ID_SHAPE.test(value);
}
