import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CliIo } from "./cli-io.js";
import { lazyCliStores, localStateDir, stateLocation } from "./cli-stores.js";

const io = (env: Record<string, string> = {}): CliIo => ({
  cwd: "/srv/app",
  env,
  stdout: () => {},
  stderr: () => {},
});

describe("where the CLI's state lives", () => {
  it("is --db, else $TOOLREG_DB, else the config file's store, else .toolreg/toolreg.db", () => {
    const configured = () => "from-config.db";
    expect(stateLocation({ db: "flag.db" }, io({ TOOLREG_DB: "env.db" }), configured)).toEqual({
      kind: "sqlite",
      path: "/srv/app/flag.db",
    });
    expect(stateLocation({}, io({ TOOLREG_DB: "env.db" }), configured)).toEqual({
      kind: "sqlite",
      path: "/srv/app/env.db",
    });
    expect(stateLocation({}, io(), configured)).toEqual({ kind: "sqlite", path: "/srv/app/from-config.db" });
    expect(stateLocation({}, io())).toEqual({ kind: "sqlite", path: "/srv/app/.toolreg/toolreg.db" });
  });

  it("reads the config file only when neither the flag nor the environment says", () => {
    let asked = 0;
    const configured = () => {
      asked++;
      return undefined;
    };
    stateLocation({ db: "flag.db" }, io(), configured);
    stateLocation({}, io({ TOOLREG_DB: "env.db" }), configured);
    expect(asked).toBe(0);
  });

  it("takes a postgres:// URL, its ?schema= being toolreg's and not the driver's", () => {
    expect(
      stateLocation({ db: "postgres://toolreg@db:5432/prod?schema=acme_prod&sslmode=require" }, io()),
    ).toEqual({
      kind: "postgres",
      url: "postgres://toolreg@db:5432/prod?sslmode=require",
      schema: "acme_prod",
    });
    expect(stateLocation({}, io({ TOOLREG_DB: "postgresql://db/prod" }))).toEqual({
      kind: "postgres",
      url: "postgresql://db/prod",
      schema: undefined,
    });
  });

  it("refuses a schema that is not a plain lower-case name, and a URL that does not parse", () => {
    for (const schema of ["Acme", "a-b", "1abc", "x".repeat(64), 'a";drop'])
      expect(() =>
        stateLocation({ db: `postgres://db/prod?schema=${encodeURIComponent(schema)}` }, io()),
      ).toThrow(/schema/);
    expect(() => stateLocation({ db: "postgres://[nope" }, io())).toThrow(/does not parse/);
  });

  it("keeps the host's own files beside a SQLite file, or under .toolreg/ for PostgreSQL", () => {
    expect(localStateDir({ kind: "sqlite", path: "/var/lib/toolreg/state.db" }, io())).toBe(
      "/var/lib/toolreg",
    );
    expect(localStateDir({ kind: "postgres", url: "postgres://db/prod", schema: undefined }, io())).toBe(
      "/srv/app/.toolreg",
    );
  });
});

describe("the CLI's lazy stores", () => {
  it("open the state file when a toolkit first writes a record, and keep it for the next command", async () => {
    const directory = mkdtempSync(join(tmpdir(), "toolreg-cli-records-"));
    const path = join(directory, "toolreg.db");
    const key = { toolkit: "email", tenantId: "acme", principalId: "ada", id: "msg-1" };
    try {
      const first = lazyCliStores(() => ({ kind: "sqlite", path }));
      expect(await first.records().add({ ...key, data: { to: "bob" }, at: 1 })).toBe(true);
      await first.close();
      const next = lazyCliStores(() => ({ kind: "sqlite", path }));
      const records = next.records();
      expect(await records.update({ ...key, data: { to: "carol" }, version: 1, at: 2 })).toBe(true);
      expect(await records.list({ ...key, limit: 10 })).toEqual({
        records: [{ ...key, createdAt: 1, updatedAt: 2, version: 2, data: { to: "carol" } }],
      });
      expect(await records.purge({ before: 2 })).toBe(1);
      expect(await records.get(key)).toBeUndefined();
      await next.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
