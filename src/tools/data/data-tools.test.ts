import { describe, expect, it } from "vitest";
import { createTestHarness } from "../../test/test-harness.js";
import { dataTools, QUERY_JSON_LIMITS } from "./index.js";

function harness() {
  return createTestHarness(dataTools());
}

describe("data toolkit", () => {
  it("always offers both tools, as reads that need no approval", () => {
    const tools = dataTools({});
    expect(tools.map((tool) => [tool.name, tool.category, tool.effect, tool.approval])).toEqual([
      ["parse_csv", "data", "read", "never"],
      ["query_json", "data", "read", "never"],
    ]);
    expect(tools[1]?.description).toContain("not Turing-complete");
  });
});

describe("parse_csv through the seam", () => {
  it("ok: rows in data, a preview in content", async () => {
    const { seam, context } = harness();
    expect(await seam.call(context(), "parse_csv", { csv: "a,b\n1,2\n" })).toMatchObject({
      ok: true,
      content: expect.stringContaining("1 row × 2 columns."),
      data: { rows: [{ a: "1", b: "2" }], truncated: false },
    });
  });

  it("truncated: the envelope and the data both say so", async () => {
    const { seam, context } = harness();
    expect(await seam.call(context(), "parse_csv", { csv: "a\n1\n2\n3", maxRows: 2 })).toMatchObject({
      ok: true,
      truncated: true,
      data: { rowCount: 2, limitedBy: ["maxRows"] },
    });
  });

  it("refusals: malformed CSV, oversized text, bad options, a path instead of text", async () => {
    const { seam, context } = harness();
    const call = (input: unknown) => seam.call(context(), "parse_csv", input);
    expect(await call({ csv: "a,b\n1,2,3" })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("line 2"), details: { line: 2 } },
    });
    expect(await call({ csv: "x".repeat(1_048_577) })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("csv") },
    });
    for (const bad of [
      { csv: "a", delimiter: ",," },
      { csv: "a", delimiter: '"' },
      { csv: "a", maxRows: 0 },
    ]) {
      expect(await call(bad)).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    }
    expect(await call({ path: "/etc/passwd" })).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });
  });
});

describe("query_json through the seam", () => {
  const json = JSON.stringify({
    items: [
      { name: "pen", price: 2 },
      { name: "lamp", price: 30 },
      { name: "desk", price: 120 },
    ],
  });

  it("ok: the result as JSON in content and as a value in data", async () => {
    const { seam, context } = harness();
    expect(
      await seam.call(context(), "query_json", { json, expression: "items[?price > `10`].name | sort(@)" }),
    ).toEqual({ ok: true, content: '["desk","lamp"]', data: { result: ["desk", "lamp"], truncated: false } });
    expect(await seam.call(context(), "query_json", { json, expression: "length(items)" })).toMatchObject({
      ok: true,
      content: "3",
    });
    expect(await seam.call(context(), "query_json", { json, expression: "missing" })).toMatchObject({
      ok: true,
      content: "null",
      data: { result: null },
    });
  });

  it("invalid JSON names its line and column", async () => {
    const { seam, context } = harness();
    expect(
      await seam.call(context(), "query_json", { json: '{\n "a": [1,,2]\n}', expression: "a" }),
    ).toMatchObject({
      ok: false,
      error: {
        code: "invalid_input",
        message: "json is not valid JSON at line 2, column 10 (position 11): unexpected ','",
        details: { field: "json", line: 2, column: 10, position: 11 },
      },
    });
  });

  it("deep JSON is refused before it is parsed", async () => {
    const { seam, context } = harness();
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(await seam.call(context(), "query_json", { json: deep, expression: "@" })).toMatchObject({
      ok: false,
      error: {
        code: "invalid_input",
        message: expect.stringContaining(`deeper than ${QUERY_JSON_LIMITS.depth} levels`),
        details: { reason: "depth" },
      },
    });
  });

  it("invalid expressions name the problem", async () => {
    const { seam, context } = harness();
    const call = (expression: string) => seam.call(context(), "query_json", { json, expression });
    expect(await call("items[")).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringMatching(/not valid JMESPath: Syntax error/) },
    });
    expect(await call("items.#x")).toMatchObject({
      error: { message: expect.stringContaining("unknown character: #") },
    });
    expect(await call("nope(@)")).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("Unknown function: nope()") },
    });
    expect(await call("length(`1`)")).toMatchObject({
      error: { code: "invalid_input", details: { field: "expression" } },
    });
    expect(await call("!".repeat(1_000))).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    expect(await call("a".repeat(1_001))).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    expect(
      await seam.call(context(), "query_json", { json: "x".repeat(1_048_577), expression: "@" }),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });
  });

  it("a result past the output cap is cut and reported", async () => {
    const { seam, context } = harness();
    const big = JSON.stringify(Array.from({ length: 10_000 }, (_, i) => `item-${i}`));
    const envelope = await seam.call(context(), "query_json", { json: big, expression: "@" });
    expect(envelope).toMatchObject({
      ok: true,
      truncated: true,
      data: { truncated: true, limit: "outputBytes", outputBytes: QUERY_JSON_LIMITS.outputBytes },
    });
    expect(envelope.ok && envelope.content).toContain("[truncated: the result is larger than 32768 bytes");
  });

  it("a query that doubles its data is stopped by time or memory, not left to run", async () => {
    const { seam, context } = harness();
    const started = Date.now();
    const doubling = Array.from({ length: 40 }, () => "[@,@] | []").join(" | ");
    const envelope = await seam.call(context(), "query_json", { json: "[1]", expression: doubling });
    expect(envelope.ok).toBe(false);
    expect(envelope.ok || ["timeout", "invalid_input"].includes(envelope.error.code)).toBe(true);
    expect(Date.now() - started).toBeLessThan(QUERY_JSON_LIMITS.timeoutMs + 2_000);
  });

  it("a result shared exponentially many times is serialized only up to the cap", async () => {
    const { seam, context } = harness();
    const doubling = Array.from({ length: 60 }, () => "[@,@]").join(" | ");
    const envelope = await seam.call(context(), "query_json", { json: "1", expression: doubling });
    expect(envelope).toMatchObject({ ok: true, truncated: true, data: { limit: "outputBytes" } });
  });

  it("an abort stops the worker and reports a timeout", async () => {
    const { seam, context } = harness();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const doubling = Array.from({ length: 40 }, () => "[@,@] | []").join(" | ");
    const started = Date.now();
    const envelope = await seam.call(context({ signal: controller.signal }), "query_json", {
      json: "[1]",
      expression: doubling,
    });
    expect(envelope).toMatchObject({ ok: false, error: { code: "timeout" } });
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
