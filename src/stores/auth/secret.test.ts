import { describe, expect, it } from "vitest";
import { hashSecret, isSecretShaped, randomSecret } from "./secret.js";

describe("secret", () => {
  it("makes distinct 43-character base64url secrets", () => {
    const secrets = new Set(Array.from({ length: 100 }, randomSecret));
    expect(secrets.size).toBe(100);
    for (const secret of secrets) expect(isSecretShaped(secret)).toBe(true);
  });

  it("refuses what is not secret-shaped", () => {
    for (const value of [
      "",
      "a".repeat(42),
      "a".repeat(44),
      `${"a".repeat(42)}=`,
      `${"a".repeat(42)}+`,
      42,
      null,
    ])
      expect(isSecretShaped(value)).toBe(false);
  });

  it("hashes to 32 bytes, the same for the same secret", () => {
    const secret = randomSecret();
    expect(hashSecret(secret)).toHaveLength(32);
    expect(hashSecret(secret).equals(hashSecret(secret))).toBe(true);
    expect(hashSecret(secret).equals(hashSecret(randomSecret()))).toBe(false);
  });
});
