import { describe, expect, it } from "vitest";
import { formatApiKey, isKeyId, newApiKeyParts, parseApiKey } from "./api-key.js";

describe("api key", () => {
  it("parses what it formats", () => {
    const parts = newApiKeyParts();
    const key = formatApiKey(parts);
    expect(key).toMatch(/^trk_[0-9a-f]{20}_[A-Za-z0-9_-]{43}$/);
    expect(parseApiKey(key)).toEqual(parts);
  });

  it("keeps a secret that contains underscores whole", () => {
    const parts = { id: "0123456789abcdef0123", secret: `_${"a_".repeat(21)}` };
    expect(parseApiKey(formatApiKey(parts))).toEqual(parts);
  });

  it("refuses malformed keys", () => {
    const { id, secret } = newApiKeyParts();
    for (const key of [
      "",
      `trk_${id}`,
      `trk_${id}_`,
      `TRK_${id}_${secret}`,
      `xyz_${id}_${secret}`,
      `trk_${id.slice(1)}_${secret}`,
      `trk_${id.toUpperCase()}_${secret}`,
      `trk_${id}_${secret}x`,
      `trk_${id}_${secret.slice(1)}`,
      ` trk_${id}_${secret}`,
      `trk_${id}_${secret}\n`,
      undefined,
      42,
    ])
      expect(parseApiKey(key), String(key)).toBeUndefined();
  });

  it("knows a key id from anything else", () => {
    expect(isKeyId(newApiKeyParts().id)).toBe(true);
    for (const value of ["", "0".repeat(19), "0".repeat(21), "A".repeat(20), `${"0".repeat(19)}\0`, 42, null])
      expect(isKeyId(value), String(value)).toBe(false);
  });
});
