/**
 * @module The statement scan: a second line only. It refuses several statements and anything that does not
 * start like a read, so a model gets a clear answer early; the read-only connection is what actually holds.
 */
import type { SqlDialect } from "./sql-port.js";

type Token = { kind: "word"; upper: string } | { kind: "punct"; value: string } | { kind: "other" };

export type ScanRule =
  | "empty"
  | "multiple_statements"
  | "not_a_read"
  | "data_modifying"
  | "pragma"
  | "not_allowed_in_write";

export type ScanRefusal = { ok: false; rule: ScanRule; message: string };
export type ScanVerdict = { ok: true; keyword: string } | ScanRefusal;

const READ_KEYWORDS: Record<SqlDialect, ReadonlySet<string>> = {
  sqlite: new Set(["SELECT", "WITH", "VALUES", "EXPLAIN", "PRAGMA"]),
  postgres: new Set(["SELECT", "WITH", "VALUES", "EXPLAIN", "SHOW", "TABLE"]),
};

/** What EXPLAIN may explain: a query, never a write (PostgreSQL's EXPLAIN ANALYZE runs its statement). */
const EXPLAINABLE = new Set(["SELECT", "WITH", "VALUES", "TABLE"]);
const EXPLAIN_OPTIONS = new Set(["ANALYZE", "ANALYSE", "VERBOSE", "QUERY", "PLAN"]);

/** Words that start a data-changing statement; seen right after a parenthesis they mean a writing CTE. */
const DATA_MODIFYING = new Set(["INSERT", "UPDATE", "DELETE", "MERGE"]);

/** SQLite pragmas that only describe the schema. Any `=` (a setting) is refused whatever the name. */
const DESCRIBING_PRAGMAS = new Set([
  "TABLE_INFO",
  "TABLE_XINFO",
  "TABLE_LIST",
  "INDEX_LIST",
  "INDEX_INFO",
  "INDEX_XINFO",
  "FOREIGN_KEY_LIST",
  "DATABASE_LIST",
]);

/**
 * Statements sql_write refuses even with approval: each call is its own transaction (so no transaction
 * control), a pooled connection must not carry session state into the next call (SET, RESET), and the
 * database's host files are not the database (ATTACH, DETACH, VACUUM INTO, COPY, LOAD, PRAGMA).
 */
const WRITE_REFUSED = new Set([
  "BEGIN",
  "START",
  "COMMIT",
  "END",
  "ROLLBACK",
  "ABORT",
  "SAVEPOINT",
  "RELEASE",
  "SET",
  "RESET",
  "ATTACH",
  "DETACH",
  "VACUUM",
  "COPY",
  "LOAD",
  "PRAGMA",
]);

/** Checks a statement for sql_query. */
export function scanReadStatement(sql: string, dialect: SqlDialect): ScanVerdict {
  const split = singleStatement(sql, dialect);
  if (!split.ok) return split;
  const { tokens } = split;
  const keyword = leadingWord(tokens, 0);
  if (keyword === undefined || !READ_KEYWORDS[dialect].has(keyword.upper)) {
    return refuse(
      "not_a_read",
      `only a read may run here: the statement must start with ${[...READ_KEYWORDS[dialect]].join(", ")}` +
        (keyword ? ` (it starts with ${keyword.upper})` : ""),
    );
  }
  if (keyword.upper === "PRAGMA") return scanPragma(tokens);
  if (keyword.upper === "EXPLAIN") {
    const inner = explained(tokens, keyword.index + 1);
    if (inner === undefined || !EXPLAINABLE.has(inner)) {
      return refuse("not_a_read", `EXPLAIN may only explain a query, not ${inner ?? "nothing"}`);
    }
  }
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (token?.kind !== "word") continue;
    if (token.upper === "INTO") {
      return refuse("data_modifying", "SELECT … INTO creates a table; only reads may run here");
    }
    const before = tokens[index - 1];
    if (DATA_MODIFYING.has(token.upper) && before?.kind === "punct" && "()".includes(before.value)) {
      return refuse(
        "data_modifying",
        `a ${token.upper} inside a query changes data; only reads may run here`,
      );
    }
  }
  return { ok: true, keyword: keyword.upper };
}

/** Checks a statement for sql_write: one statement, and none of the kinds listed in `WRITE_REFUSED`. */
export function scanWriteStatement(sql: string, dialect: SqlDialect): ScanVerdict {
  const split = singleStatement(sql, dialect);
  if (!split.ok) return split;
  const keyword = leadingWord(split.tokens, 0);
  if (keyword === undefined) return refuse("empty", "the statement is empty");
  if (WRITE_REFUSED.has(keyword.upper)) {
    return refuse(
      "not_allowed_in_write",
      `${keyword.upper} is not allowed here: each call is one statement in its own transaction, and ` +
        "session settings, transaction control and the database's files are not for this tool",
    );
  }
  return { ok: true, keyword: keyword.upper };
}

/** The first word of a statement, past comments and opening parentheses (what the PostgreSQL adapter needs). */
export function firstKeyword(sql: string, dialect: SqlDialect): string | undefined {
  return leadingWord(tokenize(sql, dialect), 0)?.upper;
}

function refuse(rule: ScanRule, message: string): ScanRefusal {
  return { ok: false, rule, message };
}

function singleStatement(sql: string, dialect: SqlDialect): { ok: true; tokens: Token[] } | ScanRefusal {
  const tokens = tokenize(sql, dialect);
  let end = tokens.length;
  // Trailing semicolons end the one statement; anything after a semicolon is a second statement.
  while (end > 0 && isPunct(tokens[end - 1], ";")) end--;
  const body = tokens.slice(0, end);
  if (body.length === 0) return refuse("empty", "the statement is empty");
  if (body.some((token) => isPunct(token, ";"))) {
    return refuse(
      "multiple_statements",
      "only one statement may run per call (a semicolon separates two here)",
    );
  }
  return { ok: true, tokens: body };
}

function leadingWord(tokens: Token[], from: number): { upper: string; index: number } | undefined {
  let index = from;
  while (isPunct(tokens[index], "(")) index++;
  const token = tokens[index];
  return token?.kind === "word" ? { upper: token.upper, index } : undefined;
}

/** The statement EXPLAIN explains: past `(options)` and option words. */
function explained(tokens: Token[], from: number): string | undefined {
  let index = from;
  if (isPunct(tokens[index], "(")) {
    let depth = 0;
    for (; index < tokens.length; index++) {
      if (isPunct(tokens[index], "(")) depth++;
      if (isPunct(tokens[index], ")") && --depth === 0) break;
    }
    index++;
  }
  while (true) {
    const token = tokens[index];
    if (token?.kind === "word" && EXPLAIN_OPTIONS.has(token.upper)) index++;
    else break;
  }
  return leadingWord(tokens, index)?.upper;
}

function scanPragma(tokens: Token[]): ScanVerdict {
  if (tokens.some((token) => isPunct(token, "="))) {
    return refuse("pragma", "a PRAGMA that sets a value is not a read");
  }
  // PRAGMA [schema .] name [( argument )]
  const dotted = isPunct(tokens[2], ".");
  const name = tokens[dotted ? 3 : 1];
  if (name?.kind !== "word" || !DESCRIBING_PRAGMAS.has(name.upper)) {
    return refuse(
      "pragma",
      `only these PRAGMAs may run here: ${[...DESCRIBING_PRAGMAS].map((pragma) => pragma.toLowerCase()).join(", ")}`,
    );
  }
  return { ok: true, keyword: "PRAGMA" };
}

function isPunct(token: Token | undefined, value: string): boolean {
  return token?.kind === "punct" && token.value === value;
}

const WORD_START = /[A-Za-z_\u0080-\uFFFF]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uFFFF]/;
const DOLLAR_TAG = /^\$([A-Za-z_\u0080-\uFFFF][A-Za-z0-9_\u0080-\uFFFF]*)?\$/;

/**
 * Splits SQL into words and punctuation, skipping comments, string literals and quoted identifiers
 * (including PostgreSQL's E'' and dollar-quoted strings, and SQLite's `` ` `` and [ ] identifiers), so a
 * semicolon or a keyword inside them is never taken for one outside. An unterminated literal runs to the
 * end, as the database would read it.
 */
function tokenize(sql: string, dialect: SqlDialect): Token[] {
  const tokens: Token[] = [];
  const length = sql.length;
  let index = 0;
  const skipQuoted = (close: string, backslashEscapes: boolean) => {
    index++;
    while (index < length) {
      const char = sql[index];
      if (backslashEscapes && char === "\\") index += 2;
      else if (char === close && sql[index + 1] === close) index += 2;
      else if (char === close) {
        index++;
        return;
      } else index++;
    }
  };
  while (index < length) {
    const char = sql[index] as string;
    const next = sql[index + 1];
    if (/\s/.test(char)) {
      index++;
    } else if (char === "-" && next === "-") {
      const newline = sql.indexOf("\n", index);
      index = newline === -1 ? length : newline + 1;
    } else if (char === "/" && next === "*") {
      index = endOfBlockComment(sql, index, dialect === "postgres");
    } else if (char === "'") {
      const previous = tokens.at(-1);
      // PostgreSQL's E'…' string: the E is lexed as a word just before, with no space between.
      const escaped =
        dialect === "postgres" &&
        previous?.kind === "word" &&
        previous.upper === "E" &&
        /[Ee]/.test(sql[index - 1] ?? "");
      if (escaped) tokens.pop();
      skipQuoted("'", escaped);
      tokens.push({ kind: "other" });
    } else if (char === '"' || (dialect === "sqlite" && char === "`")) {
      skipQuoted(char, false);
      tokens.push({ kind: "other" });
    } else if (dialect === "sqlite" && char === "[") {
      const close = sql.indexOf("]", index);
      index = close === -1 ? length : close + 1;
      tokens.push({ kind: "other" });
    } else if (dialect === "postgres" && char === "$" && DOLLAR_TAG.test(sql.slice(index, index + 64))) {
      const tag = (DOLLAR_TAG.exec(sql.slice(index, index + 64)) as RegExpExecArray)[0];
      const close = sql.indexOf(tag, index + tag.length);
      index = close === -1 ? length : close + tag.length;
      tokens.push({ kind: "other" });
    } else if (WORD_START.test(char)) {
      const start = index;
      while (index < length && WORD_PART.test(sql[index] as string)) index++;
      tokens.push({ kind: "word", upper: sql.slice(start, index).toUpperCase() });
    } else if (/[0-9$?:@]/.test(char)) {
      // Numbers and parameters ($1, ?1, :name, @name).
      index++;
      while (index < length && WORD_PART.test(sql[index] as string)) index++;
      tokens.push({ kind: "other" });
    } else {
      tokens.push({ kind: "punct", value: char });
      index++;
    }
  }
  return tokens;
}

/** PostgreSQL block comments nest; SQLite's do not. */
function endOfBlockComment(sql: string, start: number, nests: boolean): number {
  let depth = 0;
  let index = start;
  while (index < sql.length) {
    if (sql[index] === "/" && sql[index + 1] === "*") {
      depth = nests ? depth + 1 : 1;
      index += 2;
    } else if (sql[index] === "*" && sql[index + 1] === "/") {
      index += 2;
      if (--depth === 0) return index;
    } else index++;
  }
  return sql.length;
}
