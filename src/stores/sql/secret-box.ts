/**
 * @module Secrets sealed at rest with AES-256-GCM under the operator's key. Each value has its own random
 * nonce and is bound to the row it belongs to (additional data), so a sealed value copied to another row
 * does not open; the key's id is kept beside it, so a wrong key is named as such, never decrypted to garbage.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = "v1";

/** A sealed value could not be opened: the wrong key, or the value was altered. */
export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretBoxError";
  }
}

/**
 * The operator's key as a file or variable holds it: 32 bytes written as 64 hex digits or as base64
 * (`openssl rand -base64 32`). Anything else is refused, rather than stretched into a weak key.
 */
export function parseSecretKey(text: string): Buffer {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  if (/^[A-Za-z0-9+/_-]{42,44}={0,2}$/.test(trimmed)) {
    const bytes = Buffer.from(
      trimmed,
      trimmed.includes("-") || trimmed.includes("_") ? "base64url" : "base64",
    );
    if (bytes.length === KEY_BYTES) return bytes;
  }
  throw new TypeError(
    "the credentials key must be 32 random bytes written as 64 hex digits or as base64 (openssl rand -base64 32)",
  );
}

export interface SecretBox {
  /** Names the key without revealing it: the same key always has the same id. */
  readonly keyId: string;
  seal(plaintext: string, boundTo: string): string;
  /** Throws a SecretBoxError naming what is wrong; never returns what a wrong key would make of it. */
  open(sealed: string, boundTo: string): string;
}

export function createSecretBox(key: Uint8Array): SecretBox {
  if (!(key instanceof Uint8Array) || key.length !== KEY_BYTES) {
    throw new TypeError(`the credentials key must be ${KEY_BYTES} bytes`);
  }
  const secret = Buffer.from(key);
  const keyId = createHmac("sha256", secret).update("toolreg credentials key id").digest("hex").slice(0, 16);
  return {
    keyId,
    seal(plaintext, boundTo) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv("aes-256-gcm", secret, nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(boundTo));
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return [FORMAT, nonce, cipher.getAuthTag(), body].map(encode).join(".");
    },
    open(sealed, boundTo) {
      const [format, nonce, tag, body] = sealed.split(".");
      if (format !== FORMAT || nonce === undefined || tag === undefined || body === undefined) {
        throw new SecretBoxError("a sealed secret is not in a format this version reads");
      }
      try {
        const decipher = createDecipheriv("aes-256-gcm", secret, Buffer.from(nonce, "base64url"), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(Buffer.from(boundTo));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString(
          "utf8",
        );
      } catch {
        throw new SecretBoxError(
          "a sealed secret failed its integrity check: it was altered, or moved from another record",
        );
      }
    },
  };
}

function encode(part: string | Buffer): string {
  return typeof part === "string" ? part : part.toString("base64url");
}
