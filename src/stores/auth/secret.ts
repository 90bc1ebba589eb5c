/** @module Random secrets and their hashes: only hashes are stored, so a leaked database yields no credential. */
import { createHash, randomBytes } from "node:crypto";

/** 32 random bytes as base64url: always 43 characters. */
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A fresh secret for an API key, a login token, a session id or a CSRF token. */
export function randomSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** Whether a presented string could be a secret this module made; anything else is refused before hashing. */
export function isSecretShaped(value: unknown): value is string {
  return typeof value === "string" && SECRET_SHAPE.test(value);
}

/** The SHA-256 of a secret; the secret already carries 256 bits, so no salt or slow hash is needed. */
export function hashSecret(secret: string): Buffer {
  return createHash("sha256").update(secret).digest();
}
