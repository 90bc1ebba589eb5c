import { describe, expect, it } from "vitest";
import type { CliIo } from "./cli-io.js";
import { localStateDir, stateLocation } from "./cli-stores.js";

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
