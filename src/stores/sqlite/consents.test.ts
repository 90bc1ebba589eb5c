/** @module The SQLite consent store against the conformance suite, and its sealing of what a consent keeps secret. */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { runConsentStoreConformance } from "../../ports/consent-store.conformance.js";
import { createSqliteConsentStore } from "./consents.js";
import { openDatabase } from "./database.js";

const directories: string[] = [];
const databases: Database.Database[] = [];

function open(path: string): Database.Database {
  const database = openDatabase(path);
  databases.push(database);
  return database;
}

function temporaryFile(): string {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-consents-"));
  directories.push(directory);
  return join(directory, "stores.db");
}

afterEach(() => {
  for (const database of databases.splice(0)) if (database.open) database.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

runConsentStoreConformance("sqlite", async () => {
  const path = temporaryFile();
  const key = randomBytes(32);
  let database = open(path);
  return {
    store: createSqliteConsentStore(database, key),
    reopen: async () => {
      database.close();
      database = open(path);
      return createSqliteConsentStore(database, key);
    },
    cleanup: async () => {},
  };
});

describe("sqlite consent store at rest", () => {
  it("keeps the PKCE verifier and the URL carrying the state sealed, and refuses another key", async () => {
    const path = temporaryFile();
    const key = randomBytes(32);
    const store = createSqliteConsentStore(open(path), key);
    await store.open({
      tenantId: "acme",
      id: "consent-1",
      principalId: "alice",
      credentialRef: "vendor",
      provider: "vendor",
      scopes: ["read"],
      stateHash: "hash",
      codeVerifier: "verifier-canary-93b1f0",
      redirectUri: "https://toolreg.example/oauth/callback",
      authorizationUrl: "https://vendor.example/authorize?state=state-canary-5d2e77",
      createdAt: 1,
      expiresAt: 1_000_000,
    });
    for (const file of [path, `${path}-wal`]) {
      const bytes = readFileSync(file);
      expect(bytes.includes("verifier-canary-93b1f0")).toBe(false);
      expect(bytes.includes("state-canary-5d2e77")).toBe(false);
    }
    expect(() => createSqliteConsentStore(open(path), randomBytes(32))).toThrow(/is not the one/);
    expect(() => createSqliteConsentStore(open(path), undefined)).toThrow(/encryption key/);
  });
});
