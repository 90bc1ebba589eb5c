import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteAuthStore } from "./auth/index.js";
import { VerifiedKeys } from "./key-cache.js";

const dir = mkdtempSync(join(tmpdir(), "toolreg-key-cache-"));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("VerifiedKeys", () => {
  it("remembers a verified key for its TTL, so a revocation elsewhere lands within it, and never remembers a refusal", () => {
    const path = join(dir, "auth.db");
    const server = openSqliteAuthStore(path);
    const elsewhere = openSqliteAuthStore(path);
    let now = 1_000;
    const keys = new VerifiedKeys(server, { ttlMs: 1_000, clock: () => now });
    const { key, record } = server.createKey({ tenantId: "t", principalId: "p" });
    expect(keys.verify(key)?.principalId).toBe("p");
    elsewhere.revokeKey(record.id);
    now += 500;
    expect(keys.verify(key)?.principalId).toBe("p");
    now += 600;
    expect(keys.verify(key)).toBeUndefined();
    const other = server.createKey({ tenantId: "t", principalId: "q" });
    const wrong = `${other.key.slice(0, -2)}xx`;
    expect(keys.verify(wrong)).toBeUndefined();
    expect(keys.verify(other.key)?.principalId).toBe("q");
    server.close();
    elsewhere.close();
  });
});
