import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteAuthStore } from "../stores/sqlite/index.js";
import { VerifiedKeys } from "./key-cache.js";

const dir = mkdtempSync(join(tmpdir(), "toolreg-key-cache-"));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("VerifiedKeys", () => {
  it("remembers a verified key for its TTL, so a revocation elsewhere lands within it, and never remembers a refusal", async () => {
    const path = join(dir, "auth.db");
    const server = openSqliteAuthStore(path);
    const elsewhere = openSqliteAuthStore(path);
    let now = 1_000;
    const keys = new VerifiedKeys(server, { ttlMs: 1_000, clock: () => now });
    const { key, record } = await server.createKey({ tenantId: "t", principalId: "p" });
    expect((await keys.verify(key))?.principalId).toBe("p");
    await elsewhere.revokeKey(record.id);
    now += 500;
    expect((await keys.verify(key))?.principalId).toBe("p");
    now += 600;
    expect(await keys.verify(key)).toBeUndefined();
    const other = await server.createKey({ tenantId: "t", principalId: "q" });
    const wrong = `${other.key.slice(0, -2)}xx`;
    expect(await keys.verify(wrong)).toBeUndefined();
    expect((await keys.verify(other.key))?.principalId).toBe("q");
    await server.close();
    await elsewhere.close();
  });
});
