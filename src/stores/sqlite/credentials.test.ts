/** @module The SQLite credential store against the conformance suite, and what only sealing at rest can get wrong. */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { runCredentialStoreConformance } from "../../ports/credential-store.conformance.js";
import type { NewCredential } from "../../ports/credential-store.js";
import { parseSecretKey } from "../sql/secret-box.js";
import { createSqliteCredentialStore } from "./credentials.js";
import { openDatabase } from "./database.js";

const directories: string[] = [];
const databases: Database.Database[] = [];

function temporaryFile(): string {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-credentials-"));
  directories.push(directory);
  return join(directory, "stores.db");
}

function open(path: string): Database.Database {
  const database = openDatabase(path);
  databases.push(database);
  return database;
}

afterEach(() => {
  for (const database of databases.splice(0)) if (database.open) database.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

runCredentialStoreConformance("sqlite", async () => {
  const path = temporaryFile();
  const key = randomBytes(32);
  let database = open(path);
  return {
    store: createSqliteCredentialStore(database, key),
    reopen: async () => {
      database.close();
      database = open(path);
      return createSqliteCredentialStore(database, key);
    },
    cleanup: async () => {},
  };
});

const ACCESS = "gho_plaintext_canary_7f3a9c";
const REFRESH = "ghr_plaintext_canary_2b8e41";
const credential: NewCredential = {
  tenantId: "acme",
  principalId: "alice",
  ref: "github",
  kind: "oauth",
  provider: "github",
  secrets: { accessToken: ACCESS, refreshToken: REFRESH },
  connectedBy: "alice",
  at: 1_000,
};

describe("sqlite credential store at rest", () => {
  it("writes no secret in the clear, in the file or its write-ahead log", async () => {
    const path = temporaryFile();
    const database = open(path);
    await createSqliteCredentialStore(database, randomBytes(32)).put(credential);
    for (const file of [path, `${path}-wal`]) {
      const bytes = readFileSync(file);
      expect(bytes.includes(ACCESS)).toBe(false);
      expect(bytes.includes(REFRESH)).toBe(false);
    }
    const row = database.prepare("SELECT sealed, key_id FROM credentials").get() as Record<string, string>;
    expect(row.sealed).toMatch(/^v1\./);
    expect(row.key_id).toMatch(/^[0-9a-f]{16}$/);
  });

  it("refuses to open without a key, or with a key that is not 32 bytes", () => {
    const database = open(temporaryFile());
    expect(() => createSqliteCredentialStore(database, undefined)).toThrow(
      /needs the operator's encryption key/,
    );
    expect(() => createSqliteCredentialStore(database, randomBytes(16))).toThrow(/32 bytes/);
  });

  it("refuses another key with a message naming both key ids, and still opens with the right one", async () => {
    const path = temporaryFile();
    const key = randomBytes(32);
    await createSqliteCredentialStore(open(path), key).put(credential);
    const again = open(path);
    expect(() => createSqliteCredentialStore(again, randomBytes(32))).toThrow(
      /is not the one this store's secrets are sealed under \(id [0-9a-f]{16}\)/,
    );
    const store = createSqliteCredentialStore(again, key);
    expect((await store.get(credential))?.secrets).toEqual({ accessToken: ACCESS, refreshToken: REFRESH });
  });

  it("says a secret was altered, or moved to another record, instead of returning garbage", async () => {
    const database = open(temporaryFile());
    const store = createSqliteCredentialStore(database, randomBytes(32));
    await store.put(credential);
    await store.put({ ...credential, principalId: "bob", secrets: { accessToken: "bobs-token" } });
    // Alice's sealed secrets copied onto Bob's row: the tag binds them to Alice's.
    database.exec(
      "UPDATE credentials SET sealed = (SELECT sealed FROM credentials WHERE principal_id = 'alice') WHERE principal_id = 'bob'",
    );
    await expect(store.get({ ...credential, principalId: "bob" })).rejects.toThrow(
      /moved from another record/,
    );
    const sealed = (
      database.prepare("SELECT sealed FROM credentials WHERE principal_id = 'alice'").get() as {
        sealed: string;
      }
    ).sealed;
    // The character replaced is the one compared: one in 64 sealings already had an "A" there.
    const flipped = `${sealed.slice(0, -2)}${sealed.at(-2) === "A" ? "B" : "A"}${sealed.slice(-1)}`;
    database.prepare("UPDATE credentials SET sealed = ? WHERE principal_id = 'alice'").run(flipped);
    await expect(store.get(credential)).rejects.toThrow(/altered/);
    // Nothing of either secret is in what it says.
    await store.get(credential).catch((error: Error) => expect(error.message).not.toContain(ACCESS));
  });
});

describe("parseSecretKey", () => {
  const bytes = randomBytes(32);
  it("reads 64 hex digits and base64 of 32 bytes, with the newline a file ends in", () => {
    expect(parseSecretKey(`${bytes.toString("hex")}\n`)).toEqual(bytes);
    expect(parseSecretKey(bytes.toString("base64"))).toEqual(bytes);
    expect(parseSecretKey(bytes.toString("base64url"))).toEqual(bytes);
  });

  it.each([
    ["a passphrase", "correct horse battery staple"],
    ["16 bytes", randomBytes(16).toString("hex")],
    ["48 bytes of base64", randomBytes(48).toString("base64")],
    ["nothing", ""],
  ])("refuses %s rather than stretching it into a key", (_label, text) => {
    expect(() => parseSecretKey(text)).toThrow(/32 random bytes/);
  });
});
