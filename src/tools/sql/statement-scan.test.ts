import { describe, expect, it } from "vitest";
import { firstKeyword, scanReadStatement, scanWriteStatement } from "./statement-scan.js";

describe("statement scan: reads", () => {
  it.each([
    ["sqlite", "SELECT 1"],
    ["sqlite", "  -- a comment\n/* another */ select * from t;;  "],
    ["sqlite", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c LIMIT 3"],
    ["sqlite", "(SELECT 1) UNION (SELECT 2)"],
    ["sqlite", "VALUES (1, 'a'), (2, 'b')"],
    ["sqlite", "EXPLAIN QUERY PLAN SELECT * FROM t"],
    ["sqlite", "PRAGMA table_info(items)"],
    ["sqlite", "PRAGMA main.index_list('items')"],
    ["sqlite", "SELECT 'a; DELETE FROM t' AS text, \"weird;name\", [x;y], `z;w` FROM t"],
    ["sqlite", "SELECT * FROM t WHERE note = 'insert into (update)'"],
    ["postgres", "SHOW default_transaction_read_only"],
    ["postgres", "TABLE items"],
    ["postgres", "EXPLAIN (ANALYZE, FORMAT JSON) SELECT 1"],
    ["postgres", "SELECT $1::int, $tag$ ; DELETE FROM t $tag$, $$;$$, E'it\\'s; fine' AS x"],
    ["postgres", "SELECT /* outer /* nested ; */ still a comment ; */ 1"],
    ["postgres", "SELECT arr[1], x::text FROM t"],
  ] as const)("%s accepts %j", (dialect, sql) => {
    expect(scanReadStatement(sql, dialect)).toMatchObject({ ok: true });
  });

  it.each([
    ["sqlite", "INSERT INTO t VALUES (1)", "not_a_read"],
    ["sqlite", "update t set a = 1", "not_a_read"],
    ["sqlite", "DELETE FROM t", "not_a_read"],
    ["sqlite", "DROP TABLE t", "not_a_read"],
    ["sqlite", "CREATE TABLE x (a)", "not_a_read"],
    ["sqlite", "ATTACH DATABASE '/tmp/x.db' AS x", "not_a_read"],
    ["sqlite", "BEGIN", "not_a_read"],
    ["sqlite", "SELECT 1; DELETE FROM t", "multiple_statements"],
    ["sqlite", "SELECT 1; -- trailing\nSELECT 2", "multiple_statements"],
    ["sqlite", "   ;  -- nothing", "empty"],
    ["sqlite", "", "empty"],
    ["sqlite", "PRAGMA query_only = 0", "pragma"],
    ["sqlite", "PRAGMA journal_mode", "pragma"],
    ["sqlite", "PRAGMA writable_schema(1)", "pragma"],
    ["sqlite", "EXPLAIN DELETE FROM t", "not_a_read"],
    ["sqlite", "WITH a AS (SELECT 1) DELETE FROM t", "data_modifying"],
    ["sqlite", "WITH a AS (SELECT 1) INSERT INTO t SELECT * FROM a", "data_modifying"],
    ["postgres", "WITH gone AS (DELETE FROM t RETURNING *) SELECT * FROM gone", "data_modifying"],
    ["postgres", "SELECT * INTO copy FROM t", "data_modifying"],
    ["postgres", "EXPLAIN ANALYZE INSERT INTO t VALUES (1)", "not_a_read"],
    ["postgres", "PRAGMA table_info(t)", "not_a_read"],
    ["postgres", "SET default_transaction_read_only = off", "not_a_read"],
    ["postgres", "COMMIT", "not_a_read"],
    ["postgres", "COPY t TO '/tmp/out'", "not_a_read"],
    ["postgres", "SELECT $a$ x $a$; DROP TABLE t", "multiple_statements"],
    ["postgres", "SELECT E'\\''; DROP TABLE t; --'", "multiple_statements"],
    ["sqlite", "SHOW tables", "not_a_read"],
  ] as const)("%s refuses %j (%s)", (dialect, sql, rule) => {
    expect(scanReadStatement(sql, dialect)).toMatchObject({ ok: false, rule });
  });

  it("names the allowed first words in its refusal", () => {
    const verdict = scanReadStatement("INSERT INTO t VALUES (1)", "sqlite");
    expect(verdict).toMatchObject({ message: expect.stringContaining("starts with INSERT") });
  });

  it("finds the first keyword past comments and parentheses", () => {
    expect(firstKeyword("/* x */ -- y\n ((select 1))", "postgres")).toBe("SELECT");
    expect(firstKeyword("  ", "postgres")).toBeUndefined();
  });
});

describe("statement scan: writes", () => {
  it.each([
    "INSERT INTO t (a) VALUES (?)",
    "UPDATE t SET a = 1 WHERE id = 2",
    "DELETE FROM t",
    "CREATE TABLE x (a integer)",
    "WITH a AS (SELECT 1) INSERT INTO t SELECT * FROM a",
  ])("accepts %j", (sql) => {
    expect(scanWriteStatement(sql, "sqlite")).toMatchObject({ ok: true });
  });

  it.each([
    ["BEGIN", "not_allowed_in_write"],
    ["COMMIT", "not_allowed_in_write"],
    ["SET search_path = evil", "not_allowed_in_write"],
    ["ATTACH DATABASE '/tmp/x' AS x", "not_allowed_in_write"],
    ["VACUUM INTO '/tmp/copy.db'", "not_allowed_in_write"],
    ["PRAGMA journal_mode = off", "not_allowed_in_write"],
    ["COPY t FROM PROGRAM 'id'", "not_allowed_in_write"],
    ["INSERT INTO t VALUES (1); DROP TABLE t", "multiple_statements"],
    ["-- only a comment", "empty"],
  ] as const)("refuses %j (%s)", (sql, rule) => {
    expect(scanWriteStatement(sql, "postgres")).toMatchObject({ ok: false, rule });
  });
});
