import { describe, expect, it } from "vitest";
import type { ToolContext } from "../../seam/context.js";
import { headerKeys } from "./csv-shape.js";
import { PARSE_CSV_LIMITS, parseCsvSpec } from "./parse-csv.js";

// parse_csv is synchronous and reads nothing from its context.
const context = {} as ToolContext;
const run = (input: Parameters<typeof parseCsvSpec.run>[0]) =>
  parseCsvSpec.run(input, context, {}) as Exclude<
    ReturnType<typeof parseCsvSpec.run>,
    string | Promise<unknown>
  >;

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("parse_csv", () => {
  it("returns objects keyed by the header, strings as written, and a preview", () => {
    const result = run({ csv: 'name,zip,note\nAda,007,"hi, there"\nBob,10115,"two\nlines"\n' });
    expect(result.data).toEqual({
      columns: ["name", "zip", "note"],
      rows: [
        { name: "Ada", zip: "007", note: "hi, there" },
        { name: "Bob", zip: "10115", note: "two\nlines" },
      ],
      rowCount: 2,
      truncated: false,
      limitedBy: [],
    });
    expect(result.truncated).toBe(false);
    expect(result.content).toContain("2 rows × 3 columns.");
    expect(result.content).toContain("| Ada | 007 | hi, there |");
    expect(result.content).toContain("| Bob | 10115 | two lines |");
  });

  it("takes a delimiter, arrays without a header, a BOM and blank lines", () => {
    expect(run({ csv: "\ufeffa;b\r\n\r\n1;2\r\n", delimiter: ";", header: false }).data).toMatchObject({
      columns: null,
      rows: [
        ["a", "b"],
        ["1", "2"],
      ],
    });
    expect(run({ csv: "a\tb\n1\t2", delimiter: "\t" }).data?.rows).toEqual([{ a: "1", b: "2" }]);
  });

  it("keeps awkward header names as plain keys", () => {
    expect(headerKeys(["a", "", "a", "a_2", " "])).toEqual(["a", "column_2", "a_2", "a_2_2", "column_5"]);
    const row = run({ csv: "__proto__,constructor\nx,y" }).data?.rows[0] as Record<string, string>;
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.keys(row)).toEqual(["__proto__", "constructor"]);
    expect(JSON.parse(JSON.stringify(row))).toEqual(row);
  });

  it("reports the row limit, default and asked for", () => {
    const csv = `n\n${Array.from({ length: 1_500 }, (_, i) => i).join("\n")}`;
    expect(run({ csv }).data).toMatchObject({ rowCount: 1_000, truncated: true, limitedBy: ["maxRows"] });
    const three = run({ csv, maxRows: 3 });
    expect(three.data).toMatchObject({ rows: [{ n: "0" }, { n: "1" }, { n: "2" }], limitedBy: ["maxRows"] });
    expect(three.truncated).toBe(true);
    expect(three.content).toContain("Truncated by maxRows");
    expect(run({ csv: "n\n1\n2\n3", maxRows: 3 }).data).toMatchObject({ rowCount: 3, truncated: false });
  });

  it("keeps the first 200 columns and says so", () => {
    const width = PARSE_CSV_LIMITS.columns + 50;
    const line = Array.from({ length: width }, (_, i) => `c${i}`).join(",");
    const result = run({ csv: `${line}\n${line}` });
    expect(result.data?.columns).toHaveLength(PARSE_CSV_LIMITS.columns);
    expect(Object.keys(result.data?.rows[0] ?? {})).toHaveLength(PARSE_CSV_LIMITS.columns);
    expect(result.data?.limitedBy).toEqual(["columns"]);
    expect(result.content).toContain("| … |");
  });

  it("stops adding rows at the output budget and says so", () => {
    const wide = "x".repeat(1_000);
    const csv = `a\n${Array.from({ length: 400 }, () => wide).join("\n")}`;
    const result = run({ csv });
    expect(result.data?.limitedBy).toEqual(["outputBytes"]);
    expect(result.data?.rowCount).toBeLessThan(400);
    expect(Buffer.byteLength(JSON.stringify(result.data?.rows))).toBeLessThanOrEqual(
      PARSE_CSV_LIMITS.outputBytes,
    );
  });

  it("refuses malformed CSV naming the line", () => {
    for (const [csv, line] of [
      ["a,b\n1,2\n3,4,5\n", 3],
      ['a,b\n1,"2\n3,4\n', 3],
      ['a,b\n1,2"x"\n', 2],
    ] as const) {
      expect(thrown(() => run({ csv }))).toMatchObject({
        envelopeCode: "invalid_input",
        message: expect.stringContaining(`at line ${line}`),
        details: { line },
      });
    }
  });

  it("handles empty input", () => {
    expect(run({ csv: "" }).data).toMatchObject({ rows: [], rowCount: 0, columns: null });
    expect(run({ csv: "a,b\n" }).data).toMatchObject({ rows: [], columns: ["a", "b"] });
  });
});
